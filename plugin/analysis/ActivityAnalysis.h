//===- ActivityAnalysis.h - Which values carry derivatives
//------------------===//
//
// For one function and one activity of its arguments, decides
//   - which values are *varied*: of a differentiable type and depending on an
//     active argument or on memory reachable through a shadowed pointer;
//   - which pointers have a *shadow*: a pointer to memory of the same shape
//     that holds the derivatives (tangents or adjoints) of what the primal
//     pointer points to.
// Values that are neither get no derivative code and no tape. The analysis
// is a forward data-flow fixed point over the function's instructions,
// followed by a backward pass that drops varied values which reach no
// output (returned, stored, passed to code that may store them): a value
// computed only for a printf or a branch condition gets no derivative.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_ACTIVITYANALYSIS_H
#define AD_ANALYSIS_ACTIVITYANALYSIS_H

#include "modes/DerivativeSignature.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Instructions.h"
#include <optional>

namespace ad {

/// Mutable globals that differentiated code writes derivatives into, each
/// given a shadow global (modes/MutableGlobals.h decides which). The
/// analysis treats them as shadowed memory, and a call of a function that
/// reads or writes one as carrying derivatives even without differentiated
/// arguments: what it reads or overwrites there has a derivative.
struct ShadowedGlobals {
  llvm::DenseMap<const llvm::GlobalVariable *, llvm::GlobalVariable *> Shadow;
  /// The functions that access one of them, directly or through calls.
  llvm::DenseSet<const llvm::Function *> Accessors;
};

class ActivityAnalysis {
public:
  ActivityAnalysis(llvm::Function &F, llvm::ArrayRef<Activity> Args,
                   const ShadowedGlobals *Globals = nullptr);

  /// V may depend on the active inputs and has a differentiable type, or is
  /// an integer holding the bits of such a floating-point value (see
  /// fpBitsType).
  bool isVaried(const llvm::Value *V) const {
    return Varied.count(V) || FPBits.count(V);
  }
  /// For an integer that carries the bits of a varied floating-point value
  /// (bitcast from it, or loaded from differentiated memory and bitcast to
  /// it: a union or memcpy read of a double), that floating-point type.
  llvm::Type *fpBitsType(const llvm::Value *V) const {
    return FPBits.lookup(V);
  }
  /// The type of V's derivative: V's own, or the float type its bits hold.
  llvm::Type *derivativeType(const llvm::Value *V) const {
    llvm::Type *T = fpBitsType(V);
    return T ? T : V->getType();
  }
  /// An instruction computing on floating-point bits as an integer (a sign
  /// mask, say): no derivative rule can follow that, so it is an error.
  const llvm::Instruction *fpBitsMisuse() const;
  /// V is a pointer with a shadow.
  bool hasShadow(const llvm::Value *V) const {
    return Shadowed.count(V) || isShadowedGlobalAddress(V);
  }
  /// \p Call reaches a function that reads or writes a shadowed global.
  bool accessesShadowedGlobals(const llvm::CallBase &Call) const;

  /// An inttoptr whose result is dereferenced in a function that turns a
  /// shadowed pointer into an integer: the rebuilt pointer has lost its
  /// shadow, so derivatives through it would silently vanish.
  const llvm::Instruction *pointerRebuiltFromInteger() const;

  /// An integer load copied into differentiated memory of which nothing
  /// tells whether it moves a float or an integer (O2 copies a double as an
  /// i64; without a TBAA tag or a typed definition the two look the same).
  const llvm::Instruction *ambiguousIntegerCopy() const;

  void print(llvm::raw_ostream &OS) const;

private:
  /// A constant address into a shadowed global (the global, a constant GEP).
  bool isShadowedGlobalAddress(const llvm::Value *V) const;
  bool visitIntegerLoad(const llvm::LoadInst &LI);
  void keepOnlyUseful();
  bool visit(const llvm::Instruction &I);
  bool markVaried(const llvm::Value *V);
  bool markShadowed(const llvm::Value *V);
  bool markFPBits(const llvm::Value *V, llvm::Type *FPTy);

  const llvm::Function &F;
  const ShadowedGlobals *Globals;
  llvm::DenseSet<const llvm::Value *> Varied;
  llvm::DenseSet<const llvm::Value *> Shadowed;
  llvm::DenseMap<const llvm::Value *, llvm::Type *> FPBits;
  /// Depend on the active inputs but reach no output: no derivative code.
  llvm::DenseSet<const llvm::Value *> Unused;
  /// Integer copies into differentiated memory, and what each moves: a
  /// float type, nullptr (an integer), std::nullopt (cannot tell).
  llvm::DenseMap<const llvm::LoadInst *, std::optional<llvm::Type *>> Copies;
};

/// An allocation of this type needs a shadow: it may hold floating-point data
/// or pointers (whose shadows must be stored beside them).
bool mayHoldDerivatives(llvm::Type *T);

} // namespace ad

#endif
