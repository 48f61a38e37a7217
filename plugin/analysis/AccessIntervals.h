//===- AccessIntervals.h - The bytes an access touches over a loop nest ---===//
//
// ScalarEvolution describes a load or store in a loop as base + an affine
// offset of the induction variables. IntervalFinder turns such an offset
// into the interval of values it takes while some loops run (their
// induction variables eliminated; those of the loops around kept symbolic),
// as ScalarEvolution expressions of values known before the loops: smin and
// smax of start and start + step * (largest backedge-taken count). Narrow
// `int` index arithmetic, whose no-wrap flags ScalarEvolution drops, is
// redone in 64 bits under assumptions (comparisons to check at run time)
// that its values fit. ReloadVersioning.cpp builds its run-time checks from
// these intervals.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_ACCESSINTERVALS_H
#define AD_MODES_ACCESSINTERVALS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/InstrTypes.h"
#include <map>
#include <optional>
#include <tuple>

namespace llvm {
class Loop;
} // namespace llvm

namespace ad {

/// Signed comparison Lhs Pred Rhs of two expressions of one type.
struct Compare {
  llvm::CmpInst::Predicate Pred;
  const llvm::SCEV *Lhs, *Rhs;
};
/// A conjunction of comparisons; a condition is a disjunction of these.
using Conjunction = llvm::SmallVector<Compare, 3>;
using Condition = llvm::SmallVector<Conjunction, 4>;

/// An inclusive interval of values, valid where the comparisons in Assume
/// hold (that narrow arithmetic did not wrap).
struct Interval {
  const llvm::SCEV *Lo, *Hi;
  Conjunction Assume;
};

/// What wrapping an expression must be free of for its interval to be the
/// interval of its values: inside a sign extension, signed; inside a zero
/// extension, unsigned. Byte offsets in the index type wrap nowhere.
enum class NoWrap { Needless, Signed, Unsigned };

/// The intervals expressions take while some loops run.
class IntervalFinder {
public:
  explicit IntervalFinder(llvm::ScalarEvolution &SE) : SE(SE) {}

  /// The values \p S takes while \p Outermost and the loops inside it run
  /// (their induction variables eliminated, those of loops around it kept
  /// symbolic); nullopt when that is beyond what this handles.
  std::optional<Interval> over(const llvm::SCEV *S, const llvm::Loop *Outermost,
                               NoWrap Need = NoWrap::Needless);

  /// \p S with every operation done in the wider type \p T (no wrapping);
  /// nullptr for what is not a sum, product or affine recurrence of values
  /// taken as they are.
  const llvm::SCEV *exactly(const llvm::SCEV *S, llvm::Type *T);

private:
  bool wrapFree(const llvm::SCEV *S, NoWrap Need);
  std::optional<Interval> compute(const llvm::SCEV *S,
                                  const llvm::Loop *Outermost, NoWrap Need);
  /// Narrow arithmetic that ScalarEvolution cannot show free of wrapping
  /// (`b * T * V + t * V` in int, whose no-wrap flags it drops): computed
  /// exactly in the wide type \p T, it equals the narrow value wherever the
  /// exact result fits the narrow type, which the interval then assumes.
  std::optional<Interval> extendedExactly(const llvm::SCEV *Op, llvm::Type *T,
                                          bool Signed,
                                          const llvm::Loop *Outermost);
  /// {Start,+,Step}<L>, L inside Outermost: from Start to Start + Step *
  /// (L's largest backedge-taken count over the loops around it).
  std::optional<Interval> addRec(const llvm::SCEVAddRecExpr *AR,
                                 const llvm::Loop *Outermost, NoWrap Need);
  /// A product with at most one factor that varies in the loops.
  std::optional<Interval> product(const llvm::SCEVMulExpr *Mul,
                                  const llvm::Loop *Outermost, NoWrap Need);

  llvm::ScalarEvolution &SE;
  std::map<std::tuple<const llvm::SCEV *, const llvm::Loop *, unsigned>,
           std::optional<Interval>>
      Memo;
};

/// Rewrites the sign or zero extension of narrow arithmetic that varies in
/// the loops (`(sext i32 {0,+,V}<t>)`, whose int arithmetic ScalarEvolution
/// cannot show free of wrapping) into the same arithmetic in the wide type,
/// an affine recurrence the conditions can use, assuming (in \p Assume) that
/// its values over the loops fit the narrow type.
class WidenExtensions : public llvm::SCEVRewriteVisitor<WidenExtensions> {
public:
  WidenExtensions(llvm::ScalarEvolution &SE, IntervalFinder &Intervals,
                  const llvm::Loop *Outermost, Conjunction &Assume)
      : SCEVRewriteVisitor(SE), Intervals(Intervals), Outermost(Outermost),
        Assume(Assume) {}

  const llvm::SCEV *visitSignExtendExpr(const llvm::SCEVSignExtendExpr *E) {
    return widen(E, /*Signed=*/true);
  }
  const llvm::SCEV *visitZeroExtendExpr(const llvm::SCEVZeroExtendExpr *E) {
    return widen(E, /*Signed=*/false);
  }

private:
  const llvm::SCEV *widen(const llvm::SCEVIntegralCastExpr *E, bool Signed);

  IntervalFinder &Intervals;
  const llvm::Loop *Outermost;
  Conjunction &Assume;
};

/// \p S in the first iteration of every loop.
const llvm::SCEV *firstValue(llvm::ScalarEvolution &SE, const llvm::SCEV *S);

/// Start and step of \p S as an affine recurrence of \p L (step zero if
/// \p S does not vary in \p L).
std::optional<std::pair<const llvm::SCEV *, const llvm::SCEV *>>
recurrenceOf(llvm::ScalarEvolution &SE, const llvm::SCEV *S,
             const llvm::Loop *L);

} // namespace ad

#endif
