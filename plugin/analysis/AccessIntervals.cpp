//===- AccessIntervals.cpp - The bytes an access touches over a loop nest -===//
#include "analysis/AccessIntervals.h"
#include "llvm/Analysis/LoopInfo.h"

using namespace llvm;

namespace ad {

std::optional<Interval>
IntervalFinder::over(const SCEV *S, const Loop *Outermost, NoWrap Need) {
  if (!Outermost || SE.isLoopInvariant(S, Outermost))
    return Interval{S, S, {}};
  auto Key = std::make_tuple(S, Outermost, unsigned(Need));
  auto It = Memo.find(Key);
  if (It != Memo.end())
    return It->second;
  Memo[Key] = std::nullopt; // A question that leads back to itself fails.
  std::optional<Interval> R = compute(S, Outermost, Need);
  Memo[Key] = R;
  return R;
}

bool IntervalFinder::wrapFree(const SCEV *S, NoWrap Need) {
  auto *N = dyn_cast<SCEVNAryExpr>(S);
  if (Need == NoWrap::Signed)
    return N && N->hasNoSignedWrap();
  if (Need == NoWrap::Unsigned)
    return N && N->hasNoUnsignedWrap();
  return true;
}

std::optional<Interval>
IntervalFinder::compute(const SCEV *S, const Loop *Outermost, NoWrap Need) {
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S))
    return addRec(AR, Outermost, Need);
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    if (!wrapFree(Add, Need))
      return std::nullopt;
    Interval Sum{SE.getZero(S->getType()), SE.getZero(S->getType()), {}};
    for (const SCEV *Op : Add->operands()) {
      auto R = over(Op, Outermost, Need);
      if (!R)
        return std::nullopt;
      Sum.Lo = SE.getAddExpr(Sum.Lo, R->Lo);
      Sum.Hi = SE.getAddExpr(Sum.Hi, R->Hi);
      append_range(Sum.Assume, R->Assume);
    }
    return Sum;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S))
    return product(Mul, Outermost, Need);
  if (auto *Ext = dyn_cast<SCEVIntegralCastExpr>(S)) {
    bool Signed = isa<SCEVSignExtendExpr>(S);
    if (!Signed && !isa<SCEVZeroExtendExpr>(S))
      return std::nullopt;
    Type *T = S->getType();
    const SCEV *Op = Ext->getOperand();
    if (auto R =
            over(Op, Outermost, Signed ? NoWrap::Signed : NoWrap::Unsigned)) {
      auto Extend = [&](const SCEV *X) {
        return Signed ? SE.getSignExtendExpr(X, T) : SE.getZeroExtendExpr(X, T);
      };
      return Interval{Extend(R->Lo), Extend(R->Hi), R->Assume};
    }
    return extendedExactly(Op, T, Signed, Outermost);
  }
  // A value computed inside the loops (a loaded index): unknown.
  return std::nullopt;
}

std::optional<Interval> IntervalFinder::extendedExactly(const SCEV *Op, Type *T,
                                                        bool Signed,
                                                        const Loop *Outermost) {
  if (!isa<SCEVAddRecExpr>(Op) && !isa<SCEVAddExpr>(Op) &&
      !isa<SCEVMulExpr>(Op))
    return std::nullopt;
  const SCEV *Exact = exactly(Op, T);
  if (!Exact)
    return std::nullopt;
  auto R = over(Exact, Outermost);
  if (!R)
    return std::nullopt;
  unsigned Bits = Op->getType()->getIntegerBitWidth();
  if (Bits >= T->getIntegerBitWidth())
    return std::nullopt;
  APInt Min = Signed
                  ? APInt::getSignedMinValue(Bits).sext(T->getIntegerBitWidth())
                  : APInt::getZero(T->getIntegerBitWidth());
  APInt Max = Signed
                  ? APInt::getSignedMaxValue(Bits).sext(T->getIntegerBitWidth())
                  : APInt::getMaxValue(Bits).zext(T->getIntegerBitWidth());
  R->Assume.push_back({CmpInst::ICMP_SGE, R->Lo, SE.getConstant(Min)});
  R->Assume.push_back({CmpInst::ICMP_SLE, R->Hi, SE.getConstant(Max)});
  return R;
}

const SCEV *IntervalFinder::exactly(const SCEV *S, Type *T) {
  if (isa<SCEVConstant>(S) || isa<SCEVUnknown>(S) ||
      isa<SCEVSignExtendExpr>(S) || isa<SCEVZeroExtendExpr>(S))
    return SE.getSignExtendExpr(S, T);
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    const SCEV *Start = exactly(AR->getStart(), T);
    const SCEV *Step = exactly(AR->getStepRecurrence(SE), T);
    if (!AR->isAffine() || !Start || !Step)
      return nullptr;
    return SE.getAddRecExpr(Start, Step, AR->getLoop(), SCEV::FlagAnyWrap);
  }
  if (isa<SCEVAddExpr>(S) || isa<SCEVMulExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands()) {
      Ops.push_back(exactly(Op, T));
      if (!Ops.back())
        return nullptr;
    }
    return isa<SCEVAddExpr>(S) ? SE.getAddExpr(Ops) : SE.getMulExpr(Ops);
  }
  return nullptr;
}

std::optional<Interval> IntervalFinder::addRec(const SCEVAddRecExpr *AR,
                                               const Loop *Outermost,
                                               NoWrap Need) {
  const SCEV *Step = AR->getStepRecurrence(SE);
  if (!AR->isAffine() || !Outermost->contains(AR->getLoop()) ||
      !wrapFree(AR, Need) || !SE.isLoopInvariant(Step, Outermost))
    return std::nullopt;
  const SCEV *Taken = SE.getBackedgeTakenCount(AR->getLoop());
  if (isa<SCEVCouldNotCompute>(Taken))
    Taken = SE.getSymbolicMaxBackedgeTakenCount(AR->getLoop());
  if (isa<SCEVCouldNotCompute>(Taken))
    return std::nullopt;
  auto Start = over(AR->getStart(), Outermost, Need);
  auto Counts = over(Taken, Outermost);
  if (!Start || !Counts)
    return std::nullopt;
  Conjunction Assume = Start->Assume;
  append_range(Assume, Counts->Assume);
  const SCEV *Span = SE.getMulExpr(
      Step, SE.getTruncateOrZeroExtend(Counts->Hi, Step->getType()));
  if (Need == NoWrap::Unsigned) // Never wrapping unsigned: it only grows.
    return Interval{Start->Lo, SE.getAddExpr(Start->Hi, Span), Assume};
  const SCEV *Zero = SE.getZero(Span->getType());
  return Interval{SE.getAddExpr(Start->Lo, SE.getSMinExpr(Zero, Span)),
                  SE.getAddExpr(Start->Hi, SE.getSMaxExpr(Zero, Span)), Assume};
}

std::optional<Interval> IntervalFinder::product(const SCEVMulExpr *Mul,
                                                const Loop *Outermost,
                                                NoWrap Need) {
  if (!wrapFree(Mul, Need))
    return std::nullopt;
  const SCEV *Factor = SE.getOne(Mul->getType()), *Varying = nullptr;
  for (const SCEV *Op : Mul->operands()) {
    if (SE.isLoopInvariant(Op, Outermost))
      Factor = SE.getMulExpr(Factor, Op);
    else if (Varying)
      return std::nullopt;
    else
      Varying = Op;
  }
  auto R = over(Varying, Outermost, Need);
  if (!R)
    return std::nullopt;
  const SCEV *A = SE.getMulExpr(Factor, R->Lo);
  const SCEV *B = SE.getMulExpr(Factor, R->Hi);
  if (Need == NoWrap::Unsigned)
    return Interval{A, B, R->Assume};
  if (auto *C = dyn_cast<SCEVConstant>(Factor))
    return C->getAPInt().isNegative() ? Interval{B, A, R->Assume}
                                      : Interval{A, B, R->Assume};
  return Interval{SE.getSMinExpr(A, B), SE.getSMaxExpr(A, B), R->Assume};
}

const SCEV *WidenExtensions::widen(const SCEVIntegralCastExpr *E, bool Signed) {
  const SCEV *Op = E->getOperand();
  if (!Outermost || SE.isLoopInvariant(Op, Outermost))
    return E;
  const SCEV *Exact = Intervals.exactly(Op, E->getType());
  auto R = Exact ? Intervals.over(Exact, Outermost) : std::nullopt;
  if (!R)
    return E;
  unsigned Narrow = Op->getType()->getIntegerBitWidth();
  unsigned Wide = E->getType()->getIntegerBitWidth();
  APInt Min = Signed ? APInt::getSignedMinValue(Narrow).sext(Wide)
                     : APInt::getZero(Wide);
  APInt Max = Signed ? APInt::getSignedMaxValue(Narrow).sext(Wide)
                     : APInt::getMaxValue(Narrow).zext(Wide);
  append_range(Assume, R->Assume);
  Assume.push_back({CmpInst::ICMP_SGE, R->Lo, SE.getConstant(Min)});
  Assume.push_back({CmpInst::ICMP_SLE, R->Hi, SE.getConstant(Max)});
  return Exact;
}

/// \p S in the first iteration of every loop.
const SCEV *firstValue(ScalarEvolution &SE, const SCEV *S) {
  struct First : SCEVRewriteVisitor<First> {
    using SCEVRewriteVisitor::SCEVRewriteVisitor;
    const SCEV *visitAddRecExpr(const SCEVAddRecExpr *AR) {
      return visit(AR->getStart());
    }
  };
  return First(SE).visit(S);
}

/// Start and step of \p S as an affine recurrence of \p L (step zero if
/// \p S does not vary in \p L).
std::optional<std::pair<const SCEV *, const SCEV *>>
recurrenceOf(ScalarEvolution &SE, const SCEV *S, const Loop *L) {
  if (SE.isLoopInvariant(S, L))
    return std::make_pair(S, SE.getZero(S->getType()));
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return std::nullopt;
  return std::make_pair(AR->getStart(), AR->getStepRecurrence(SE));
}

} // namespace ad
