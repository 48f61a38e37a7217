//===- MathCalls.h - Rows of calls with partials: math, complex, reductions -*- C++ -*-===//
//
// A math function (MathRules.h), a function of complex numbers
// (ComplexRules.h) and a floating-point vector reduction
// (VectorReductions.h) pass derivatives to their result only, through their
// partials: forward mode sums partial * tangent over the varied arguments,
// the reverse sweep adds partial * adjoint to each varied argument's
// adjoint. The arithmetic instructions (fadd, fdiv, ...) are applied by the
// same two functions, so a partial serves every mode in one place.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_MATHCALLS_H
#define AD_RULES_MATHCALLS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

struct MathRule;

/// Forward mode: the tangent of \p I (an arithmetic instruction or a call,
/// whose arguments are its first operands) by \p Rule.
llvm::Value *tangentByRule(TangentEmitter &E, llvm::Instruction &I,
                           const MathRule &Rule);
/// The reverse sweep: adds the adjoint \p DY of \p I's result, times each
/// partial, to the adjoints of \p I's varied operands.
void adjointByRule(AdjointEmitter &E, llvm::Instruction &I,
                   const MathRule &Rule, llvm::Value *DY);

/// The row functions (CallRows.cpp).

/// Every argument's derivative reaches the result (complex arithmetic,
/// reductions, custom rules): a varied argument makes the result varied.
bool everyArgumentActivity(CallActivity &A, const llvm::CallBase &Call,
                           const CalleeInfo &Info);

} // namespace ad

#endif
