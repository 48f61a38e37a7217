//===- ShadowCloning.h - A primal's clone and its shadows -------*- C++ -*-===//
//
// Both modes start a derivative the same way: the canonical primal is cloned
// into the new function, whose extra parameters are the shadows (and, in
// forward mode, tangents) of the arguments, and every pointer that may
// point to differentiated memory gets a shadow pointer computed beside it.
// TangentBuilder and ReverseBuilder's forward sweep share that part here, so
// that a pointer's shadow is found, and a GEP, cast or select is mirrored on
// shadows, by one piece of code; what differs between the modes (a constant's
// shadow for the reverse sweep, pointer bits without a shadow) is the
// ForReverse flag.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_SHADOWCLONING_H
#define AD_MODES_SHADOWCLONING_H

#include "analysis/ActivityAnalysis.h"
#include "modes/DerivativeCache.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ad {

class ShadowCloning {
public:
  /// \p Shadows maps primal values to their shadows in the clone (forward
  /// mode keeps tangents in the same map).
  ShadowCloning(ADContext &Ctx, const ActivityAnalysis &AA,
                llvm::ValueToValueMapTy &VMap,
                llvm::DenseMap<const llvm::Value *, llvm::Value *> &Shadows,
                bool ForReverse)
      : Ctx(Ctx), AA(AA), VMap(VMap), Shadows(Shadows), ForReverse(ForReverse) {
  }

  /// Clones \p Primal's body into \p NewF. NewF's parameters are Primal's,
  /// then one per argument that passes a derivative in (a shadow for a
  /// Shadowed pointer; in forward mode also a tangent for an Active value),
  /// in order: they become those arguments' shadows.
  void cloneBody(llvm::Function &Primal, llvm::Function &NewF,
                 llvm::ArrayRef<Activity> Args);

  /// The clone of primal value \p Orig (a constant is its own clone).
  llvm::Value *cloneOf(llvm::Value *Orig) {
    return llvm::isa<llvm::Constant>(Orig)
               ? Orig
               : static_cast<llvm::Value *>(VMap[Orig]);
  }
  llvm::CallBase &cloneOf(llvm::CallBase &Call) {
    return *llvm::cast<llvm::CallBase>(VMap[&Call]);
  }
  /// The shadow of primal pointer \p Orig in the clone; nullptr, after
  /// reporting the error at \p User, if it has none.
  llvm::Value *shadowOf(llvm::Value *Orig, llvm::Instruction *User);
  void setShadow(const llvm::Value *Orig, llvm::Value *Shadow) {
    Shadows[Orig] = Shadow;
  }
  /// Pointer-producing \p I (a GEP, cast, select, freeze, aggregate access)
  /// applied to the shadows of its pointer operands: a copy of its clone,
  /// named and not yet inserted (each mode places it). nullptr after an
  /// error.
  llvm::Instruction *shadowCopy(llvm::Instruction &I);

private:
  /// The shadow of \p Op, an integer that holds a pointer's bits.
  llvm::Value *shadowOfPointerBits(llvm::Value *Op, llvm::Instruction *User);

  ADContext &Ctx;
  const ActivityAnalysis &AA;
  llvm::ValueToValueMapTy &VMap;
  llvm::DenseMap<const llvm::Value *, llvm::Value *> &Shadows;
  bool ForReverse;
};

} // namespace ad

#endif
