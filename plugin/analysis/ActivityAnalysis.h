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

#include "core/DerivativeSignature.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Instructions.h"
#include <optional>

namespace ad {

class TypeAnalysis;

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
  /// \p Types answers what integer copies move (see TypeAnalysis.h).
  /// \p MessagePassers: the module's functions that exchange MPI messages
  /// (rules/MessagePassing.h), if any.
  using FunctionSet = llvm::DenseSet<const llvm::Function *>;
  ActivityAnalysis(llvm::Function &F, llvm::ArrayRef<Activity> Args,
                   const TypeAnalysis &Types,
                   const ShadowedGlobals *Globals = nullptr,
                   const FunctionSet *MessagePassers = nullptr);

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
  /// \p Call reaches a function that exchanges MPI messages: it needs its
  /// derivative even without differentiated arguments.
  bool exchangesMessages(const llvm::CallBase &Call) const;

  /// An inttoptr whose result is dereferenced in a function that turns a
  /// shadowed pointer into an integer: the rebuilt pointer has lost its
  /// shadow, so derivatives through it would silently vanish.
  const llvm::Instruction *pointerRebuiltFromInteger() const;

  /// An integer load copied into differentiated memory of which nothing
  /// tells whether it moves a float or an integer (O2 copies a double as an
  /// i64; without a TBAA tag or a typed definition the two look the same).
  const llvm::Instruction *ambiguousIntegerCopy() const {
    return firstCopy(CopyKind::Unknown);
  }
  /// An integer load copied into differentiated memory that moves part of
  /// a floating-point value (a byte-wise copy of a double): its adjoint
  /// cannot be split into bytes.
  const llvm::Instruction *partialFloatCopy() const {
    return firstCopy(CopyKind::PartFloat);
  }
  /// An integer load of several floats (or parts of them), computed on or
  /// passed along as one integer: -O3 passes a struct of two floats to an
  /// internal function as an i64.
  const llvm::Instruction *floatsInInteger() const {
    return firstCopy(CopyKind::FloatsInInteger);
  }
  /// An integer load (and the stores of it) that moves the bits of a
  /// pointer between differentiated memories (O2 copies a pointer field as
  /// an i64, a byte loop copies one byte by byte): the shadow pointer must
  /// be copied along.
  bool movesPointerBits(const llvm::Value *V) const {
    return PointerBits.count(V);
  }

  void print(llvm::raw_ostream &OS) const;

private:
  /// The facts as call rows (rules/CallRows.h) read and extend them.
  class Facts;
  /// A constant address into a shadowed global (the global, a constant GEP).
  bool isShadowedGlobalAddress(const llvm::Value *V) const;
  bool visitIntegerLoad(const llvm::LoadInst &LI);
  bool markPointerBits(const llvm::Value *V);
  /// Gives the local allocation \p Ptr points into a shadow.
  bool shadowLocalMemory(const llvm::Value *Ptr);
  void keepOnlyUseful();
  bool visit(const llvm::Instruction &I);
  bool markVaried(const llvm::Value *V);
  bool markShadowed(const llvm::Value *V);
  bool markFPBits(const llvm::Value *V, llvm::Type *FPTy);

  const llvm::Function &F;
  const TypeAnalysis &Types;
  const ShadowedGlobals *Globals;
  const FunctionSet *MessagePassers;
  llvm::DenseSet<const llvm::Value *> Varied;
  llvm::DenseSet<const llvm::Value *> Shadowed;
  llvm::DenseMap<const llvm::Value *, llvm::Type *> FPBits;
  /// Depend on the active inputs but reach no output: no derivative code.
  llvm::DenseSet<const llvm::Value *> Unused;
  /// Integers carrying pointer bits (loads copied between shadowed
  /// memories, and phis or selects of them).
  llvm::DenseSet<const llvm::Value *> PointerBits;
  /// Integer loads from differentiated memory, and what each moves.
  enum class CopyKind : uint8_t {
    Integer,
    Float,
    Pointer,
    PartFloat,
    FloatsInInteger,
    Unknown
  };
  const llvm::Instruction *firstCopy(CopyKind Kind) const;
  llvm::DenseMap<const llvm::LoadInst *, std::pair<CopyKind, llvm::Type *>>
      Copies;
};

/// An allocation of this type needs a shadow: it may hold floating-point data
/// or pointers (whose shadows must be stored beside them).
bool mayHoldDerivatives(llvm::Type *T);

} // namespace ad

#endif
