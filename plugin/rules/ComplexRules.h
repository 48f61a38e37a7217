//===- ComplexRules.h - Derivatives of complex functions, as data ---------===//
//
// C99's complex functions (cexp, cabs, cpow, ...) and the compiler-rt helpers
// that complex multiplication and division call (__muldc3, __divdc3 and their
// float variants) take and return complex numbers, which reach the IR as
// pairs of real components: two scalar arguments (double), one <2 x float>
// (float), a { double, double } or <2 x float> result. A MathRow's single
// partial per argument cannot say how each component of the result depends
// on each component of an argument, so these functions get rows of their own:
// one row per function, whose rule fills the Jacobian of the result's real
// components with respect to the arguments' real components. One Jacobian
// serves both modes, as MathRules' partials do: forward mode multiplies it by
// the arguments' tangents, reverse mode multiplies its transpose by the
// result's adjoint. A holomorphic function (cexp, the product, the quotient)
// fills its 2x2 blocks from one complex derivative f'(z).
//
// The primal call stays: the derivative never replaces the library's own
// arithmetic (its scaling, its handling of infinities) by ours.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_COMPLEXRULES_H
#define AD_RULES_COMPLEXRULES_H

#include "rules/MathRules.h"
#include "llvm/IR/InstrTypes.h"

namespace ad {

class ComplexPrimals;
struct ComplexJacobian;

struct ComplexRule {
  const char *Name;
  unsigned NumInputs; ///< Complex arguments (two real components each).
  bool RealResult;    ///< cabs, carg: one real result, else a complex one.
  /// Fills the Jacobian from the primal components (fetched lazily).
  void (*Jacobian)(llvm::IRBuilderBase &B, ComplexPrimals &P,
                   ComplexJacobian &J);
};

/// The rule for a call, or nullptr when the callee is no known complex
/// function or its IR type is not the expected pairs of one floating-point
/// type (a long double complex passed in memory, say).
const ComplexRule *lookupComplexRule(const llvm::CallBase &Call);

/// Forward mode: the tangent of \p Call's result, the Jacobian times the
/// tangents of its arguments. \p TangentOf returns an argument's tangent, or
/// nullptr when the argument carries none.
llvm::Value *
complexTangent(llvm::IRBuilderBase &B, const ComplexRule &Rule,
               const llvm::CallBase &Call, PrimalAccessor Primal,
               llvm::function_ref<llvm::Value *(unsigned)> TangentOf);

/// Reverse mode: for each argument K with \p Wanted(K), the transposed
/// Jacobian times the result's adjoint \p DY, in the argument's own type,
/// handed to \p AddAdjoint(K, adjoint).
void complexAdjoints(
    llvm::IRBuilderBase &B, const ComplexRule &Rule, const llvm::CallBase &Call,
    PrimalAccessor Primal, llvm::Value *DY,
    llvm::function_ref<bool(unsigned)> Wanted,
    llvm::function_ref<void(unsigned, llvm::Value *)> AddAdjoint);

} // namespace ad

#endif
