//===- OverwriteConditions.cpp - What keeps a write off an earlier access ===//
#include "analysis/OverwriteConditions.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <numeric>

using namespace llvm;

namespace ad {

const Loop *outermostInside(const Loop *L, const Loop *Around) {
  if (!L || L == Around)
    return nullptr;
  while (L->getParentLoop() != Around)
    L = L->getParentLoop();
  return L;
}

std::optional<Access> accessOfInstruction(Instruction *I, ScalarEvolution &SE,
                                          const LoopInfo &LI,
                                          IntervalFinder &Intervals) {
  Value *Ptr = nullptr;
  const SCEV *Size = nullptr;
  const DataLayout &DL = I->getDataLayout();
  Type *I64 = Type::getInt64Ty(I->getContext());
  auto FixedSize = [&](Type *T) -> const SCEV * {
    TypeSize TS = DL.getTypeStoreSize(T);
    return TS.isScalable() ? nullptr : SE.getConstant(I64, TS.getFixedValue());
  };
  if (auto *Ld = dyn_cast<LoadInst>(I)) {
    Ptr = Ld->getPointerOperand();
    Size = FixedSize(Ld->getType());
  } else if (auto *St = dyn_cast<StoreInst>(I)) {
    Ptr = St->getPointerOperand();
    Size = FixedSize(St->getValueOperand()->getType());
  } else if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
    Ptr = MI->getRawDest();
    if (SE.isSCEVable(MI->getLength()->getType()))
      Size = SE.getTruncateOrZeroExtend(SE.getSCEV(MI->getLength()), I64);
  }
  if (!Ptr || !Size || !SE.isSCEVable(Ptr->getType()))
    return std::nullopt;
  const SCEV *P = SE.getSCEV(Ptr);
  const SCEV *Base = SE.getPointerBase(P);
  if (!isa<SCEVUnknown>(Base))
    return std::nullopt;
  const SCEV *Offset = SE.removePointerBase(P);
  if (isa<SCEVCouldNotCompute>(Offset) || Offset->getType() != I64)
    return std::nullopt;
  Access A{I, Base, Offset, Size, LI.getLoopFor(I->getParent()), {}};
  WidenExtensions Widen(SE, Intervals, outermostInside(A.L, nullptr),
                        A.Assume);
  A.Offset = Widen.visit(A.Offset);
  A.Size = Widen.visit(A.Size);
  return A;
}

const SCEV *OverwriteConditions::absolute(const Access &A, const SCEV *Offset) {
  return SE.getAddExpr(
      SE.getPtrToIntExpr(A.Base,
                         Type::getInt64Ty(A.Base->getType()->getContext())),
      Offset);
}

/// The bytes [Lo, End) an access touches while some loops run.
struct Touched {
  const SCEV *Lo, *End;
  Conjunction Assume;
};

/// What access \p A touches while \p Outermost runs (null: its own
/// execution).
static std::optional<Touched> touched(IntervalFinder &Intervals,
                                      ScalarEvolution &SE, const Access &A,
                                      const Loop *Outermost) {
  // Offsets from a base pointer that itself moves (a select in the loop)
  // say nothing about addresses.
  if (Outermost && !SE.isLoopInvariant(A.Base, Outermost))
    return std::nullopt;
  auto Off = Intervals.over(A.Offset, Outermost);
  auto Size = Intervals.over(A.Size, Outermost);
  if (!Off || !Size)
    return std::nullopt;
  Touched T{Off->Lo, SE.getAddExpr(Off->Hi, Size->Hi), Off->Assume};
  append_range(T.Assume, Size->Assume);
  return T;
}

/// \p Ld and \p W touch the same bytes each time both run.
static bool sameAddress(const Access &Ld, const Access &W) {
  return Ld.Base == W.Base && Ld.Offset == W.Offset && Ld.Size == W.Size;
}

void OverwriteConditions::addWholeRunDisjoint(const Access &Ld, const Access &W,
                                              Condition &C) {
  // The same first address (an update in place, or two passes over one
  // array): whatever the rest, their intervals share that byte.
  if (Ld.Base == W.Base &&
      firstValue(SE, Ld.Offset) == firstValue(SE, W.Offset))
    return;
  auto L = touched(Intervals, SE, Ld, outermostInside(Ld.L, nullptr));
  auto X = touched(Intervals, SE, W, outermostInside(W.L, nullptr));
  if (!L || !X)
    return;
  const SCEV *LLo = L->Lo, *LEnd = L->End, *WLo = X->Lo, *WEnd = X->End;
  if (Ld.Base != W.Base) {
    LLo = absolute(Ld, LLo), LEnd = absolute(Ld, LEnd);
    WLo = absolute(W, WLo), WEnd = absolute(W, WEnd);
  }
  Below.insert({LLo, LEnd});
  Below.insert({WLo, WEnd});
  Conjunction Assume = L->Assume;
  append_range(Assume, X->Assume);
  append_range(Assume, Ld.Assume);
  append_range(Assume, W.Assume);
  for (Compare Apart : {Compare{CmpInst::ICMP_SLE, LEnd, WLo},
                        Compare{CmpInst::ICMP_SLE, WEnd, LLo}}) {
    Conjunction Conj = Assume;
    Conj.push_back(Apart);
    C.push_back(std::move(Conj));
  }
}

bool OverwriteConditions::writeMayFollow(const Access &Ld, const Access &W,
                                         const Loop *Lc) {
  BasicBlock *From = Ld.I->getParent(), *To = W.I->getParent();
  if (From == To)
    return Ld.I->comesBefore(W.I);
  // Within one iteration: paths that do not pass the header again. (LLVM's
  // isPotentiallyReachable gives up, answering yes, after 32 blocks.)
  auto &Reach = ReachableInIteration[{From, Lc->getHeader()}];
  if (Reach.empty()) {
    SmallVector<BasicBlock *, 32> Work(successors(From));
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Lc->getHeader() || !Reach.insert(BB).second)
        continue;
      append_range(Work, successors(BB));
    }
    Reach.insert(nullptr); // Computed, even if empty.
  }
  return Reach.contains(To);
}

std::optional<Condition>
OverwriteConditions::laterIterations(const Access &Ld, const Access &W,
                                     const Loop *Lc, const Loop *Outermost,
                                     bool SameIterationToo) {
  if (!SE.isLoopInvariant(Ld.Base, Lc) || !SE.isLoopInvariant(W.Base, Lc))
    return std::nullopt;
  auto L = touched(Intervals, SE, Ld, outermostInside(Ld.L, Lc));
  auto X = touched(Intervals, SE, W, outermostInside(W.L, Lc));
  if (!L || !X)
    return std::nullopt;
  auto LLo = recurrenceOf(SE, L->Lo, Lc), LEnd = recurrenceOf(SE, L->End, Lc);
  auto WLo = recurrenceOf(SE, X->Lo, Lc), WEnd = recurrenceOf(SE, X->End, Lc);
  if (!LLo || !LEnd || !WLo || !WEnd)
    return std::nullopt;
  const SCEV *S = LLo->second;
  if (LEnd->second != S || WLo->second != S || WEnd->second != S ||
      !SE.isLoopInvariant(S, Outermost))
    return std::nullopt;
  // What these intervals assume varies with the iterations; the same
  // assumptions over the whole outermost loop imply them for every one.
  Conjunction Assume;
  if (!L->Assume.empty() || !X->Assume.empty()) {
    auto WholeL = touched(Intervals, SE, Ld, Outermost);
    auto WholeX = touched(Intervals, SE, W, Outermost);
    if (!WholeL || !WholeX)
      return std::nullopt;
    Assume = WholeL->Assume;
    append_range(Assume, WholeX->Assume);
  }
  // In iteration l of Lc the load touches [LLo + l*S, LEnd + l*S) and the
  // write [WLo + l*S, WEnd + l*S) (the starts may depend on the loops
  // around Lc): X <= Y is checked as X - Y <= 0, which must not depend on
  // them.
  const SCEV *Zero = SE.getZero(S->getType());
  std::optional<Compare> Missing;
  auto AtMost = [&](const SCEV *X, const SCEV *Y) {
    const SCEV *D = SE.getMinusSCEV(X, Y);
    if (!SE.isLoopInvariant(D, Outermost))
      Missing = Compare{};
    return Compare{CmpInst::ICMP_SLE, D, SE.getZero(D->getType())};
  };
  Condition Later = {
      {{CmpInst::ICMP_SGT, S, Zero},
       AtMost(LEnd->first, SE.getAddExpr(WLo->first, S))},
      {{CmpInst::ICMP_SLT, S, Zero},
       AtMost(SE.getAddExpr(WEnd->first, S), LLo->first)},
      {{CmpInst::ICMP_EQ, S, Zero}, AtMost(LEnd->first, WLo->first)},
      {{CmpInst::ICMP_EQ, S, Zero}, AtMost(WEnd->first, LLo->first)}};
  Compare Same[] = {AtMost(LEnd->first, WLo->first),
                    AtMost(WEnd->first, LLo->first)};
  if (Missing)
    return std::nullopt;
  append_range(Assume, Ld.Assume);
  append_range(Assume, W.Assume);
  for (Conjunction &Conj : Later)
    append_range(Conj, Assume);
  if (!SameIterationToo)
    return Later;
  // ... and in the load's own iteration, the write coming after it.
  if (sameAddress(Ld, W))
    return std::nullopt;
  Condition Both;
  for (const Conjunction &Conj : Later)
    for (const Compare &Cmp : Same) {
      Both.push_back(Conj);
      Both.back().push_back(Cmp);
    }
  return Both;
}

void OverwriteConditions::addDistinctIterations(const Access &Ld,
                                                const Access &W,
                                                ArrayRef<const Loop *> Common,
                                                Condition &C) {
  if (Ld.Base != W.Base || Common.size() > 4)
    return;
  const Loop *Top = Common.front(), *Inner = Common.back();
  // X: the offset in the first iteration of every loop inside the common
  // ones; the rest varies inside, within [Lo, End) over the whole run.
  struct Split {
    const SCEV *X, *Lo, *End;
  };
  auto SplitOf = [&](const Access &A) -> std::optional<Split> {
    struct AtInnerStart : SCEVRewriteVisitor<AtInnerStart> {
      const Loop *Inner;
      AtInnerStart(ScalarEvolution &SE, const Loop *Inner)
          : SCEVRewriteVisitor(SE), Inner(Inner) {}
      const SCEV *visitAddRecExpr(const SCEVAddRecExpr *AR) {
        if (AR->getLoop() != Inner && Inner->contains(AR->getLoop()))
          return visit(AR->getStart());
        return SCEVRewriteVisitor::visitAddRecExpr(AR);
      }
    };
    const SCEV *X = AtInnerStart(SE, Inner).visit(A.Offset);
    auto R = Intervals.over(SE.getMinusSCEV(A.Offset, X), Top);
    auto Size = Intervals.over(A.Size, Top);
    if (!R || !Size || !R->Assume.empty() || !Size->Assume.empty())
      return std::nullopt;
    return Split{X, R->Lo, SE.getAddExpr(R->Hi, Size->Hi)};
  };
  auto SL = SplitOf(Ld), SW = SplitOf(W);
  if (!SL || !SW || SL->X != SW->X)
    return;
  // X = X0 + sum over the common loops of stride * induction variable.
  struct Digit {
    const SCEV *Stride, *Count;
  };
  SmallVector<Digit, 4> Digits;
  const SCEV *X = SL->X;
  for (const Loop *L : reverse(Common)) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(X);
    if (!AR || AR->getLoop() != L || !AR->isAffine())
      return;
    const SCEV *Stride = AR->getStepRecurrence(SE);
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Taken))
      Taken = SE.getSymbolicMaxBackedgeTakenCount(L);
    auto Counts = isa<SCEVCouldNotCompute>(Taken) ? std::nullopt
                                                  : Intervals.over(Taken, Top);
    if (!SE.isLoopInvariant(Stride, Top) || !Counts || !Counts->Assume.empty())
      return;
    const SCEV *Count =
        SE.getAddExpr(SE.getTruncateOrZeroExtend(Counts->Hi, Stride->getType()),
                      SE.getOne(Stride->getType()));
    Digits.push_back({Stride, Count});
    X = AR->getStart();
  }
  if (!SE.isLoopInvariant(X, Top))
    return;
  // Each common iteration's window spans at most Span bytes; with the
  // strides sorted s1 <= s2 <= ..., s1 >= Span and s(k+1) >= s(k) * N(k)
  // keep any two iterations at least s1 apart. The order is not known
  // statically: every order is an alternative.
  const SCEV *Span = SE.getMinusSCEV(SE.getSMaxExpr(SL->End, SW->End),
                                     SE.getSMinExpr(SL->Lo, SW->Lo));
  SmallVector<unsigned, 4> Order(Digits.size());
  std::iota(Order.begin(), Order.end(), 0);
  Conjunction Assume = Ld.Assume;
  append_range(Assume, W.Assume);
  do {
    Conjunction Conj = Assume;
    for (const Digit &D : Digits)
      Conj.push_back(
          {CmpInst::ICMP_SGT, D.Stride, SE.getZero(D.Stride->getType())});
    Conj.push_back({CmpInst::ICMP_SGE, Digits[Order[0]].Stride, Span});
    for (unsigned K = 0; K + 1 < Order.size(); ++K)
      Conj.push_back(
          {CmpInst::ICMP_SGE, Digits[Order[K + 1]].Stride,
           SE.getMulExpr(Digits[Order[K]].Stride, Digits[Order[K]].Count)});
    C.push_back(std::move(Conj));
  } while (std::next_permutation(Order.begin(), Order.end()));
}

std::optional<Compare> OverwriteConditions::neverRuns(const Access &W) {
  // A memset or memcpy behind a guard that does not change in the loops
  // (the tail of a row zeroed only if V < Vp) has a length that is
  // meaningless when the guard fails: the guard failing is then an
  // alternative. (Not for stores: that would only keep alive conditions
  // known to fail whenever the loop runs.)
  if (!isa<MemIntrinsic>(W.I))
    return std::nullopt;
  const Loop *Top = outermostInside(W.L, nullptr);
  BasicBlock *BB = W.I->getParent();
  for (DomTreeNode *N = DT.getNode(BB)->getIDom(); N; N = N->getIDom()) {
    auto *Br = dyn_cast<BranchInst>(N->getBlock()->getTerminator());
    auto *Cmp = Br && Br->isConditional()
                    ? dyn_cast<ICmpInst>(Br->getCondition())
                    : nullptr;
    if (!Cmp || !SE.isSCEVable(Cmp->getOperand(0)->getType()))
      continue;
    const SCEV *L = SE.getSCEV(Cmp->getOperand(0));
    const SCEV *R = SE.getSCEV(Cmp->getOperand(1));
    if (Top && (!SE.isLoopInvariant(L, Top) || !SE.isLoopInvariant(R, Top)))
      continue;
    for (unsigned K = 0; K < 2; ++K)
      if (DT.dominates(BasicBlockEdge(N->getBlock(), Br->getSuccessor(K)), BB))
        // Runs only if the comparison came out K == 0 (true): skipped if not.
        return Compare{
            K == 0 ? Cmp->getInversePredicate() : Cmp->getPredicate(), L, R};
  }
  return std::nullopt;
}

std::optional<SmallVector<Condition, 2>>
OverwriteConditions::pairCondition(const Access &Ld, const Access &W) {
  // One parallel region: its threads' writes may come before or after any
  // of their reads, so only ranges that never meet will do. (A store is its
  // own writer too, in the loop's later iterations: B and C below.)
  if (Ld.I == W.I && isa<CallBase>(Ld.I)) {
    Condition Whole;
    addWholeRunDisjoint(Ld, W, Whole);
    SmallVector<Condition, 2> All;
    if (!addAlternatives(std::move(Whole), std::nullopt, All))
      return std::nullopt;
    return All;
  }
  // The loops around both, outermost first: in a later iteration of any of
  // them the write follows the load whatever their order in the body.
  SmallVector<const Loop *, 4> Common;
  for (const Loop *L = Ld.L; L; L = L->getParentLoop())
    if (L->contains(W.I->getParent()))
      Common.insert(Common.begin(), L);
  if (Common.empty() && !isPotentiallyReachable(Ld.I, W.I, nullptr, &DT, &LI))
    return SmallVector<Condition, 2>{}; // Only ever before the load.
  // Either they never meet at all (A), or at each level of the common
  // loops a later iteration's write misses this iteration's load (B): A or
  // (B1 and B2 ...) = (A or B1) and (A or B2) ...
  Condition Whole;
  addWholeRunDisjoint(Ld, W, Whole);
  if (!Common.empty() && !writeMayFollow(Ld, W, Common.back()))
    addDistinctIterations(Ld, W, Common, Whole);
  SmallVector<Condition, 2> All;
  std::optional<Compare> Skipped = neverRuns(W);
  auto Add = [&](Condition C) { return addAlternatives(C, Skipped, All); };
  if (Common.empty()) {
    if (!Add(Whole))
      return std::nullopt;
    return All;
  }
  for (const Loop *Lc : Common) {
    bool Innermost = Lc == Common.back();
    Condition C = Whole;
    if (auto Later = laterIterations(Ld, W, Lc, Common.front(),
                                     Innermost && writeMayFollow(Ld, W, Lc)))
      append_range(C, *Later);
    if (!Add(std::move(C)))
      return std::nullopt;
  }
  return All;
}

bool OverwriteConditions::addAlternatives(Condition C,
                                          std::optional<Compare> Skipped,
                                          SmallVectorImpl<Condition> &All) {
  if (Skipped)
    C.push_back({*Skipped});
  if (C.empty() || !simplify(C))
    return false;
  if (!C.empty()) // Empty after simplifying: it always holds.
    All.push_back(std::move(C));
  return true;
}

bool OverwriteConditions::simplify(Condition &C) {
  Condition Kept;
  for (Conjunction &Conj : C) {
    Conjunction Open;
    bool False = false;
    for (Compare &Cmp : Conj) {
      if (SE.isKnownPredicate(Cmp.Pred, Cmp.Lhs, Cmp.Rhs))
        continue;
      // An interval's end is past its start: "End <= Lo" of the same
      // interval fails (ScalarEvolution rarely sees it through smin/smax).
      if (Cmp.Pred == CmpInst::ICMP_SLE && Below.count({Cmp.Rhs, Cmp.Lhs})) {
        False = true;
        break;
      }
      if (SE.isKnownPredicate(CmpInst::getInversePredicate(Cmp.Pred), Cmp.Lhs,
                              Cmp.Rhs)) {
        False = true;
        break;
      }
      Open.push_back(Cmp);
    }
    if (False)
      continue;
    if (Open.empty()) { // This alternative always holds.
      C.clear();
      return true;
    }
    Kept.push_back(std::move(Open));
  }
  C = std::move(Kept);
  return !C.empty();
}

} // namespace ad
