//===- ActivityAnalysis.h - Which values carry derivatives ------------------===//
//
// For one function and one activity of its arguments, decides
//   - which values are *varied*: of a differentiable type and depending on an
//     active argument or on memory reachable through a shadowed pointer;
//   - which pointers have a *shadow*: a pointer to memory of the same shape
//     that holds the derivatives (tangents or adjoints) of what the primal
//     pointer points to.
// Values that are neither get no derivative code and no tape. The analysis
// is a forward data-flow fixed point over the function's instructions.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_ACTIVITYANALYSIS_H
#define AD_ANALYSIS_ACTIVITYANALYSIS_H

#include "modes/DerivativeSignature.h"
#include "llvm/ADT/DenseSet.h"

namespace ad {

class ActivityAnalysis {
public:
  ActivityAnalysis(llvm::Function &F, llvm::ArrayRef<Activity> Args);

  /// V has a differentiable type and may depend on the active inputs.
  bool isVaried(const llvm::Value *V) const { return Varied.count(V); }
  /// V is a pointer with a shadow.
  bool hasShadow(const llvm::Value *V) const { return Shadowed.count(V); }

  /// An inttoptr whose result is dereferenced in a function that turns a
  /// shadowed pointer into an integer: the rebuilt pointer has lost its
  /// shadow, so derivatives through it would silently vanish.
  const llvm::Instruction *pointerRebuiltFromInteger() const;

  void print(llvm::raw_ostream &OS) const;

private:
  bool visit(const llvm::Instruction &I);
  bool markVaried(const llvm::Value *V);
  bool markShadowed(const llvm::Value *V);

  const llvm::Function &F;
  llvm::DenseSet<const llvm::Value *> Varied;
  llvm::DenseSet<const llvm::Value *> Shadowed;
};

/// An allocation of this type needs a shadow: it may hold floating-point data
/// or pointers (whose shadows must be stored beside them).
bool mayHoldDerivatives(llvm::Type *T);

} // namespace ad

#endif
