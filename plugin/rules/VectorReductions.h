//===- VectorReductions.h - Derivatives of llvm.vector.reduce.* -------------===//
//
// The vectorizer turns sum, product, max and min loops into reductions of a
// vector to a scalar. Each is described by its partial derivatives: with
// respect to the start value (a scalar, for fadd and fmul) and, lane by lane,
// with respect to the vector. Both modes apply them the same way:
//   forward: dy = dstart * pstart + sum(pvec * dvec)
//   reverse: dstart += pstart * dy;  dvec += pvec * splat(dy)
// each product through guardedTerm (MathRules.h), as a rule row's terms.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_VECTORREDUCTIONS_H
#define AD_RULES_VECTORREDUCTIONS_H

#include "rules/MathRules.h"
#include "llvm/IR/IRBuilder.h"

namespace ad {

/// A floating-point reduction we differentiate.
bool isFPReduction(llvm::Intrinsic::ID ID);

struct ReductionPartials {
  llvm::Value *Start = nullptr;  ///< Scalar, or nullptr (no start operand).
  llvm::Value *Vector = nullptr; ///< Vector of per-lane partials.
  /// Max and min choose a lane (the partials are 0 elsewhere); sums and
  /// products have partials finite where the lanes are (see ZeroGuard).
  ZeroGuard Guard = ZeroGuard::None;
};

/// The partials of reduction \p ID at its primal operands: \p Start (nullptr
/// for max/min), \p Vec, and its result \p Result.
ReductionPartials reductionPartials(llvm::IRBuilderBase &B,
                                    llvm::Intrinsic::ID ID, llvm::Value *Start,
                                    llvm::Value *Vec, llvm::Value *Result);

/// The position of the vector operand (1 when there is a start value).
unsigned reductionVectorOperand(llvm::Intrinsic::ID ID);

} // namespace ad

#endif
