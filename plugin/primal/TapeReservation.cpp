//===- TapeReservation.cpp - How much tape a loop nest will push ----------===//
#include "primal/TapeReservation.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/LoopIterator.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace ad {

namespace {

/// How many times \p L's backedge is taken per entry, in the loop's own
/// type; null where ScalarEvolution knows only a bound. A bound is no trip
/// count: an exit tested against a value reloaded every iteration is
/// bounded by the range of the value's type (2^31 - 1 iterations for an
/// int), and an early exit makes the bound of the others loose.
const SCEV *exactTakenCount(Loop &L, ScalarEvolution &SE) {
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken) || !Taken->getType()->isIntegerTy() ||
      Taken->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  return Taken;
}

/// Where \p L (not outermost) is entered from on every iteration of its
/// parent that reaches the parent's latch: its preheader, or the guard that
/// skips it when it would run no iteration, if that dominates the latch;
/// null otherwise. Counting a loop inside a branch as entered on every
/// iteration would reserve for iterations that may never run.
BasicBlock *entryEveryIteration(Loop &L, DominatorTree &DT) {
  BasicBlock *Latch = L.getParentLoop()->getLoopLatch();
  if (!Latch)
    return nullptr;
  if (BasicBlock *Preheader = L.getLoopPreheader())
    if (DT.dominates(Preheader, Latch))
      return Preheader;
  BranchInst *Guard = L.getLoopGuardBranch();
  if (Guard && DT.dominates(Guard->getParent(), Latch))
    return Guard->getParent();
  return nullptr;
}

/// Whether \p L has blocks besides its header and leaves only from its
/// header (as unrotated loops do, at -O0): its other blocks then run once
/// per backedge taken, one time fewer than the header.
bool exitsOnlyAtHeader(Loop &L) {
  if (L.getNumBlocks() == 1)
    return false; // No other blocks.
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  return all_of(Exiting, [&](BasicBlock *BB) { return BB == L.getHeader(); });
}

/// The header's runs per entry, as an i64 SCEV, from the backedge-taken
/// count \p Taken: Taken + 1 clamped at zero in the loop's own type (0 for
/// `for (j = 0; j < m; j++)` with m <= 0, evaluated where its guard will
/// skip it; a count that wraps to negative there reserves nothing).
const SCEV *headerRuns(const SCEV *Taken, ScalarEvolution &SE) {
  Type *Ty = Taken->getType();
  const SCEV *Runs = SE.getAddExpr(Taken, SE.getOne(Ty));
  Runs = SE.getSMaxExpr(Runs, SE.getZero(Ty));
  return SE.getNoopOrZeroExtend(Runs, Type::getInt64Ty(Ty->getContext()));
}

/// The backedges taken per entry, as an i64 SCEV, clamped at zero likewise.
const SCEV *backedgesTaken(const SCEV *Taken, ScalarEvolution &SE) {
  Type *Ty = Taken->getType();
  const SCEV *Runs = SE.getSMaxExpr(Taken, SE.getZero(Ty));
  return SE.getNoopOrZeroExtend(Runs, Type::getInt64Ty(Ty->getContext()));
}

/// Bits enough for \p X's magnitude, sign included.
unsigned magnitudeBits(const SCEV *X, ScalarEvolution &SE) {
  ConstantRange R = SE.getSignedRange(X);
  return std::max(R.getSignedMin().getSignificantBits(),
                  R.getSignedMax().getSignificantBits());
}

/// \p X sign-extended to \p Wide, kept a polynomial in the enclosing
/// iterations (and an indicator an indicator) where X is one: where
/// ScalarEvolution cannot fold the extension into an add recurrence (it
/// proves no signed wrap only from flags and ranges), the recurrence's
/// operands are extended if it does not wrap around its own range
/// (FlagNW), or X's signed range is not the full set; the extension goes
/// into min, max and zero extensions, and into sums and products whose
/// operands' ranges show they cannot wrap. A count that wraps in its own
/// type where its loop runs would take an int past 2^31 - 1: the
/// reservation, a hint, may then be wrong.
const SCEV *widen(const SCEV *X, Type *Wide, ScalarEvolution &SE) {
  // Zero-extended where that is the same and SCEV prefers it (counts known
  // not negative), so that equal counts compare equal.
  if (!SE.containsAddRecurrence(X) && SE.isKnownNonNegative(X))
    return SE.getNoopOrZeroExtend(X, Wide);
  const SCEV *W = SE.getNoopOrSignExtend(X, Wide);
  if (X->getType() == Wide || isa<SCEVAddRecExpr>(W))
    return W;
  SmallVector<const SCEV *, 4> Ops;
  auto WidenOps = [&](const SCEVNAryExpr *E) {
    for (const SCEV *Op : E->operands())
      Ops.push_back(widen(Op, Wide, SE));
  };
  unsigned Width = X->getType()->getIntegerBitWidth(), Bits = 0;
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(X)) {
    if (!AR->hasNoSelfWrap() && SE.getSignedRange(X).isFullSet())
      return W;
    WidenOps(AR);
    return SE.getAddRecExpr(Ops, AR->getLoop(), SCEV::FlagAnyWrap);
  }
  if (auto *Z = dyn_cast<SCEVZeroExtendExpr>(X))
    return SE.getZeroExtendExpr(Z->getOperand(), Wide);
  if (auto *E = dyn_cast<SCEVNAryExpr>(X))
    for (const SCEV *Op : E->operands())
      Bits = isa<SCEVMulExpr>(X) ? Bits + magnitudeBits(Op, SE)
                                 : std::max(Bits, magnitudeBits(Op, SE));
  if (isa<SCEVAddExpr>(X))
    Bits += Log2_32_Ceil(cast<SCEVAddExpr>(X)->getNumOperands());
  if (isa<SCEVSMinExpr, SCEVSMaxExpr>(X) ||
      (isa<SCEVAddExpr, SCEVMulExpr>(X) && Bits < Width)) {
    WidenOps(cast<SCEVNAryExpr>(X));
    if (isa<SCEVAddExpr>(X))
      return SE.getAddExpr(Ops);
    if (isa<SCEVMulExpr>(X))
      return SE.getMulExpr(Ops);
    return isa<SCEVSMinExpr>(X) ? SE.getSMinExpr(Ops) : SE.getSMaxExpr(Ops);
  }
  return W;
}

/// For an integer comparison \p Cond of values that may change in the nest,
/// an i64 SCEV A with A > 0 exactly where Cond holds (`t2 <= t`: t - t2 + 1),
/// from operands sign-extended (unsigned comparisons of values known not
/// negative alike): an indicator min(max(A, 0), 1) that sums in closed form
/// where A is affine in the loop. Null for other conditions.
const SCEV *comparedPositive(Value *Cond, ScalarEvolution &SE) {
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy() ||
      Cmp->getOperand(0)->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  const SCEV *L = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *R = SE.getSCEV(Cmp->getOperand(1));
  ICmpInst::Predicate Pred = Cmp->getPredicate();
  if (Cmp->isUnsigned()) {
    if (!SE.isKnownNonNegative(L) || !SE.isKnownNonNegative(R))
      return nullptr;
    Pred = ICmpInst::getSignedPredicate(Pred);
  }
  Type *I64 = Type::getInt64Ty(Cond->getContext());
  L = widen(L, I64, SE), R = widen(R, I64, SE);
  switch (Pred) {
  case ICmpInst::ICMP_SLT: // R - L > 0
    return SE.getMinusSCEV(R, L);
  case ICmpInst::ICMP_SLE:
    return SE.getAddExpr(SE.getMinusSCEV(R, L), SE.getOne(I64));
  case ICmpInst::ICMP_SGT:
    return SE.getMinusSCEV(L, R);
  case ICmpInst::ICMP_SGE:
    return SE.getAddExpr(SE.getMinusSCEV(L, R), SE.getOne(I64));
  default:
    return nullptr;
  }
}

/// Whether the edge from \p From to \p To is taken when From runs, as an
/// i64 SCEV: 1, or a branch condition zero-extended, or 1 minus it; for the
/// guard that skips a subloop of \p P where it would run no iteration,
/// whether the subloop's runs are positive, min(max(runs, 0), 1), which
/// sums in closed form where the runs change with P's iterations. A
/// condition that changes while the nest runs stays in the indicators it
/// takes part in, where it either cancels out (the join of an `if`: c +
/// (1 - c)) or leaves them unknown. Null for other terminators.
const SCEV *edgeTaken(BasicBlock *From, BasicBlock *To, Loop &P, Loop &Outer,
                      ScalarEvolution &SE) {
  auto *Br = dyn_cast<BranchInst>(From->getTerminator());
  Type *I64 = Type::getInt64Ty(From->getContext());
  if (!Br)
    return nullptr;
  const SCEV *One = SE.getOne(I64);
  if (Br->isUnconditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
    return One;
  BasicBlock *Into = Br->getSuccessor(0);
  // The iterations are those that go on: an exit's branch (the header's,
  // where only the header exits) takes the edge into the loop on all of
  // them.
  if (P.contains(Br->getSuccessor(0)) != P.contains(Br->getSuccessor(1)))
    return P.contains(To) ? One : nullptr;
  const SCEV *Taken = SE.getZeroExtendExpr(SE.getSCEV(Br->getCondition()), I64);
  if (!Outer.isLoopInvariant(Br->getCondition()))
    if (const SCEV *Positive = comparedPositive(Br->getCondition(), SE))
      Taken = SE.getSMinExpr(SE.getSMaxExpr(Positive, SE.getZero(I64)), One);
  if (!Outer.isLoopInvariant(Br->getCondition()))
    for (Loop *S : P.getSubLoops()) {
      const SCEV *Count = nullptr;
      if (S->getLoopGuardBranch() != Br || !(Count = exactTakenCount(*S, SE)))
        continue;
      Count = SE.getAddExpr(Count, SE.getOne(Count->getType()));
      Count = SE.getSMaxExpr(widen(Count, I64, SE), SE.getZero(I64));
      Taken = SE.getSMinExpr(Count, One);
      Into = S->getLoopPreheader();
    }
  return To == Into ? Taken : SE.getMinusSCEV(One, Taken);
}

/// Per block of a loop (not of its subloops), how many times it runs per
/// iteration, 0 or 1, as an i64 SCEV in conditions that do not change while
/// the nest runs.
using Indicators = DenseMap<const BasicBlock *, const SCEV *>;

/// The indicators of \p P's blocks whose runs per iteration are decided by
/// branches on conditions that do not change while the nest under \p Outer
/// runs (`if (k > 1)` with k an argument), found in reverse post-order as
/// the sum over a block's incoming edges of the runs of the edge: a block
/// runs at most once per iteration (any other cycle would be a loop). A
/// subloop with one exit block is one node: its exit runs once per entry.
/// Indicators that keep a condition that changes while the nest runs are
/// kept too: countInBranches leaves them to the pushes.
Indicators blockIndicators(Loop &P, Loop &Outer, LoopInfo &LI,
                           ScalarEvolution &SE) {
  Indicators F;
  LoopBlocksRPO RPO(&P);
  RPO.perform(&LI);
  Type *I64 = Type::getInt64Ty(P.getHeader()->getContext());
  for (BasicBlock *X : RPO) {
    if (LI.getLoopFor(X) != &P)
      continue;
    if (X == P.getHeader()) {
      F[X] = SE.getOne(I64);
      continue;
    }
    const SCEV *Runs = SE.getZero(I64);
    SmallPtrSet<Loop *, 2> Exited;
    for (BasicBlock *Y : predecessors(X)) {
      const SCEV *Term = nullptr;
      Loop *S = LI.getLoopFor(Y);
      while (S && S != &P && S->getParentLoop() != &P)
        S = S->getParentLoop();
      if (S == &P) {
        const SCEV *Edge = F.count(Y) ? edgeTaken(Y, X, P, Outer, SE) : nullptr;
        Term = Edge ? SE.getMulExpr(F.lookup(Y), Edge) : nullptr;
      } else if (S && !Exited.insert(S).second) {
        continue; // Another edge out of a subloop already counted.
      } else if (S && S->getUniqueExitBlock() == X && S->getLoopPreheader()) {
        Term = F.lookup(S->getLoopPreheader());
      }
      if (!Term) {
        Runs = nullptr;
        break;
      }
      Runs = SE.getAddExpr(Runs, Term);
    }
    if (Runs && Runs->getExpressionSize() <= 64)
      F[X] = Runs;
  }
  return F;
}

/// A block of a counted loop that does not run on every iteration: its runs
/// per iteration (an indicator) where that does not change while the nest
/// runs; otherwise its runs summed over the iterations (countVarying), per
/// run of the block that Scope is entered from.
struct InBranch {
  BasicBlock *BB;
  const SCEV *Indicator, *Runs;
  Loop *Scope;
  BasicBlock *EnteredFrom;
};

/// A counted loop of a nest: how many times its header runs and, where only
/// the header exits, its other blocks (i64 SCEVs), per run of the block
/// \c EnteredFrom of the parent of \c Scope (per entry into the nest where
/// Scope is the outermost loop). Scope is the loop itself where its trip
/// count does not change while the nest runs, or the ancestor over whose
/// iterations its counts were summed (countVaryingLoop). \c InBranches:
/// its blocks that do not run on every iteration but whose runs are known.
struct NestLoop {
  Loop *L;
  const SCEV *Runs, *Completed;
  Loop *Scope;
  BasicBlock *EnteredFrom;
  SmallVector<InBranch, 4> InBranches;
};

/// A loop of the nest counted so far: its exact backedge-taken count, in
/// its own type; the block of its parent it is entered from, and whether it
/// is entered when that block runs (an indicator, null for always).
struct CountedLoop {
  const SCEV *Taken;
  BasicBlock *From;
  const SCEV *Entered;
  Indicators Blocks;
};
using CountedLoops = DenseMap<Loop *, CountedLoop>;

/// \p X times \p C's entry indicator, zero-extended to X's type.
const SCEV *timesEntered(const SCEV *X, const CountedLoop &C,
                         ScalarEvolution &SE) {
  if (!C.Entered)
    return X;
  return SE.getMulExpr(X, SE.getNoopOrZeroExtend(C.Entered, X->getType()));
}

/// How many times \p BB, a block of \p L that runs on every iteration, runs
/// per entry into L, in L's own type: the header's runs (Taken + 1), or the
/// backedges taken where only the header exits and BB is not the header.
/// Not clamped: a count that changes while the nest runs is a polynomial in
/// the enclosing loops' iterations only while unclamped. Where the clamp
/// would have mattered (a subloop skipped by its guard), the count is
/// negative, and a sum of such counts is at most the number of runs.
const SCEV *narrowRuns(Loop &L, const CountedLoop &C, const BasicBlock *BB,
                       ScalarEvolution &SE) {
  const SCEV *Runs = C.Taken;
  if (BB == L.getHeader() || !exitsOnlyAtHeader(L))
    Runs = SE.getAddExpr(Runs, SE.getOne(Runs->getType()));
  return Runs;
}

/// Whether \p X <= \p N where X is used (in a loop's blocks other than its
/// header): known so, or X is an add recurrence that does not decrease (its
/// step known not negative, no signed wrap) and its value at its loop's
/// last such iteration is known at most N (t + 1 <= T in
/// `for (t = 0; t < T; t++)`).
bool atMost(const SCEV *X, const SCEV *N, ScalarEvolution &SE) {
  if (SE.isKnownPredicate(ICmpInst::ICMP_SLE, X, N))
    return true;
  auto *AR = dyn_cast<SCEVAddRecExpr>(X);
  if (!AR || !AR->isAffine() || !AR->hasNoSignedWrap() ||
      !SE.isKnownNonNegative(AR->getStepRecurrence(SE)))
    return false;
  // The last iteration whose blocks other than the header run: X is used
  // where a subloop is entered.
  Loop &L = *const_cast<Loop *>(AR->getLoop());
  const SCEV *Last = exactTakenCount(L, SE);
  if (Last && exitsOnlyAtHeader(L))
    Last = SE.getMinusSCEV(Last, SE.getOne(Last->getType()));
  if (!Last || SE.getTypeSizeInBits(Last->getType()) >
                   SE.getTypeSizeInBits(X->getType()))
    return false;
  Last = widen(Last, X->getType(), SE);
  return SE.isKnownPredicate(ICmpInst::ICMP_SLE,
                             AR->evaluateAtIteration(Last, SE), N);
}

/// How many k < \p N have A(k) > 0, for \p A = {a,+,b} with b a constant:
/// the runs of a block that runs where a subloop whose runs are A is entered
/// (its preheader, behind the guard that skips it). Null for other A.
const SCEV *countPositive(const SCEVAddRecExpr *A, const SCEV *N,
                          ScalarEvolution &SE) {
  auto *Step = dyn_cast<SCEVConstant>(A->getStepRecurrence(SE));
  if (!A->isAffine() || !Step || Step->isZero())
    return nullptr;
  Type *Ty = A->getType();
  const SCEV *Zero = SE.getZero(Ty), *Start = A->getStart();
  const APInt &B = Step->getAPInt();
  const SCEV *M = SE.getConstant(B.abs()), *M1 = SE.getConstant(B.abs() - 1);
  // min(N, X), or X where X <= N is known (so that the count stays a
  // polynomial in the enclosing iterations: t + 1 of `t2 <= t` for t < T).
  auto AtMostN = [&](const SCEV *X) {
    return atMost(X, N, SE) ? X : SE.getSMinExpr(N, X);
  };
  if (B.isNegative()) // A(k) > 0 for k < ceil(max(a, 0) / m).
    return AtMostN(
        SE.getUDivExpr(SE.getAddExpr(SE.getSMaxExpr(Start, Zero), M1), M));
  // A(k) <= 0 for k < max(m - a, 0) / m; positive after.
  const SCEV *NotPositive =
      SE.getUDivExpr(SE.getSMaxExpr(SE.getMinusSCEV(M, Start), Zero), M);
  return SE.getMinusSCEV(N, AtMostN(NotPositive));
}

/// The sum of \p X, one term, over the first \p N (>= 0) iterations of
/// \p P: X times N where X does not change in P; where X is a polynomial in
/// P's iteration k (an add recurrence {x0,+,x1,...}<P>), its sum over k < N
/// is {0,+,x0,+,x1,...}<P> at iteration N, in closed form (binomial
/// coefficients of N; exact modulo 2^width); where X is factors that do not
/// change in P times an indicator min(max(A, 0), 1) (edgeTaken), the count
/// of k < N with A(k) > 0 times the factors. Null otherwise.
const SCEV *sumTerm(Loop &P, const SCEV *X, const SCEV *N,
                    ScalarEvolution &SE) {
  if (SE.isLoopInvariant(X, &P))
    return SE.getMulExpr(X, N);
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(X)) {
    if (AR->getLoop() != &P)
      return nullptr;
    SmallVector<const SCEV *, 4> Ops{SE.getZero(X->getType())};
    append_range(Ops, AR->operands());
    return SCEVAddRecExpr::evaluateAtIteration(Ops, N, SE);
  }
  const SCEV *Factor = SE.getOne(X->getType()), *Sum = nullptr;
  auto *Mul = dyn_cast<SCEVMulExpr>(X);
  for (const SCEV *Op : Mul ? Mul->operands() : ArrayRef<const SCEV *>(X)) {
    // min(max(A, 0), 1), or min(A, 1) where A is known not negative.
    const SCEV *A = nullptr;
    auto *Min = dyn_cast<SCEVSMinExpr>(Op);
    if (Min && Min->getNumOperands() == 2 && Min->getOperand(0)->isOne()) {
      A = Min->getOperand(1);
      auto *Max = dyn_cast<SCEVSMaxExpr>(A);
      if (Max && Max->getNumOperands() == 2 && Max->getOperand(0)->isZero())
        A = Max->getOperand(1);
      else if (!SE.isKnownNonNegative(A))
        A = nullptr;
    }
    auto *AR = dyn_cast_or_null<SCEVAddRecExpr>(A);
    if (SE.isLoopInvariant(Op, &P))
      Factor = SE.getMulExpr(Factor, Op);
    else if (!Sum && AR && AR->getLoop() == &P)
      Sum = countPositive(AR, N, SE);
    else
      return nullptr;
  }
  return Sum ? SE.getMulExpr(Factor, Sum) : nullptr;
}

/// The sum of \p X over the first \p N (>= 0) iterations of \p P, term by
/// term (sumTerm); null where a term has no closed form.
const SCEV *sumOver(Loop &P, const SCEV *X, const SCEV *N,
                    ScalarEvolution &SE) {
  auto *Add = dyn_cast<SCEVAddExpr>(X);
  if (!Add || SE.isLoopInvariant(X, &P))
    return sumTerm(P, X, N, SE);
  const SCEV *Sum = SE.getZero(X->getType());
  for (const SCEV *Op : Add->operands()) {
    const SCEV *Term = sumTerm(P, Op, N, SE);
    if (!Term)
      return nullptr;
    Sum = SE.getAddExpr(Sum, Term);
  }
  return Sum;
}

/// \p X, a \p Wide count, clamped to [0, 2^64 - 1] and truncated to i64.
const SCEV *saturateToI64(const SCEV *X, ScalarEvolution &SE) {
  Type *I64 = Type::getInt64Ty(X->getType()->getContext());
  if (X->getType() == I64)
    return SE.getSMaxExpr(X, SE.getZero(I64));
  X = SE.getSMaxExpr(X, SE.getZero(X->getType()));
  X = SE.getUMinExpr(X,
                     SE.getZeroExtendExpr(SE.getMinusOne(I64), X->getType()));
  return SE.getTruncateExpr(X, I64);
}

/// A count summed over the enclosing iterations: runs per run of the block
/// \c Scope is entered from (per entry into the nest for the outermost), in
/// the width summed in, and the bits its magnitude may take.
struct Summed {
  const SCEV *Runs = nullptr;
  Loop *Scope = nullptr;
  unsigned Bits = 0;
};

/// Sums \p S.Runs, runs per iteration of \p P (of something in a block of P
/// that runs on every iteration, or entered from \p From), over P's
/// iterations, then over its parent's and so on until the sum does not
/// change while the nest under \p Outer runs. False where a count is no
/// polynomial in the enclosing iterations, or where a count summed over may
/// be negative (a polynomial's value at a negative count is no sum).
bool sumUpward(Summed &S, Loop *P, const BasicBlock *From, Loop &Outer,
               const CountedLoops &Counted, ScalarEvolution &SE) {
  Type *Wide = S.Runs->getType();
  for (;; From = Counted.find(P)->second.From, P = P->getParentLoop()) {
    auto It = Counted.find(P);
    if (It == Counted.end())
      return false;
    const CountedLoop &PC = It->second;
    const SCEV *Narrow = narrowRuns(*P, PC, From, SE);
    // Clamped in the loop's own type, as headerRuns does (and as the
    // counts atMost compares it with are).
    if (SE.isLoopInvariant(Narrow, &Outer))
      Narrow = SE.getSMaxExpr(Narrow, SE.getZero(Narrow->getType()));
    const SCEV *N = widen(Narrow, Wide, SE);
    if (!SE.isKnownNonNegative(N))
      return false;
    S.Bits += magnitudeBits(Narrow, SE);
    if (!(S.Runs = sumOver(*P, S.Runs, N, SE)))
      return false;
    S.Runs = timesEntered(S.Runs, PC, SE);
    S.Scope = P;
    if (SE.isLoopInvariant(S.Runs, &Outer))
      return true;
    if (P == &Outer)
      return false;
  }
}

/// \p Runs, per iteration of \p P of a block or loop entered from \p From
/// (times the indicator that \p Of, if any, is entered),
/// summed up the nest (sumUpward) in the narrowest multiple of 64 bits that
/// holds the product of the counts summed over, up to 256 bits, so that no
/// sum wraps; saturated to i64.
std::optional<Summed> countVarying(const SCEV *Runs, const CountedLoop *Of,
                                   Loop *P, const BasicBlock *From, Loop &Outer,
                                   const CountedLoops &Counted,
                                   ScalarEvolution &SE) {
  LLVMContext &Ctx = P->getHeader()->getContext();
  for (unsigned Width = 64; Width <= 256; Width += 64) {
    const SCEV *Wide = widen(Runs, IntegerType::get(Ctx, Width), SE);
    Summed S{Of ? timesEntered(Wide, *Of, SE) : Wide, nullptr,
             magnitudeBits(Runs, SE)};
    if (!sumUpward(S, P, From, Outer, Counted, SE))
      return std::nullopt;
    if (S.Bits < Width) {
      S.Runs = saturateToI64(S.Runs, SE);
      return S;
    }
  }
  return std::nullopt;
}

/// Counts \p NL.L, whose trip count changes while the nest under \p Outer
/// runs (a triangular nest's inner loop), by summing its runs over the
/// iterations of its parents (countVarying). NL.Scope is the last loop
/// summed over.
bool countVaryingLoop(NestLoop &NL, Loop &Outer, const CountedLoops &Counted,
                      ScalarEvolution &SE) {
  Loop &L = *NL.L;
  const CountedLoop &C = Counted.find(&L)->second;
  auto Count = [&](const BasicBlock *BB) {
    return countVarying(narrowRuns(L, C, BB, SE), &C, L.getParentLoop(), C.From,
                        Outer, Counted, SE);
  };
  std::optional<Summed> Runs = Count(L.getHeader()), Completed;
  if (!Runs || (exitsOnlyAtHeader(L) && !(Completed = Count(nullptr))) ||
      (Completed && Completed->Scope != Runs->Scope))
    return false;
  NL.Runs = Runs->Runs;
  NL.Completed = Completed ? Completed->Runs : nullptr;
  NL.Scope = Runs->Scope;
  NL.EnteredFrom = Counted.find(NL.Scope)->second.From;
  return true;
}

/// Where \p L (not outermost) is entered from: its preheader where that
/// runs on every iteration of the parent, or where conditions that do not
/// change in the nest under \p Outer decide whether it runs (its indicator
/// in \p Parent's blocks, exact also where a guard on such a condition
/// skips the loop: `if (k > 0)` hoisted out of `for (j = 0; j < k; j++)`);
/// else the guard that skips it where it would run no iteration
/// (entryEveryIteration); else its preheader with an indicator that changes
/// in the nest, which countVaryingLoop may sum. False where none holds.
bool entryOf(Loop &L, const CountedLoop &Parent, Loop &Outer, DominatorTree &DT,
             ScalarEvolution &SE, BasicBlock *&From, const SCEV *&Entered) {
  Entered = nullptr;
  BasicBlock *Preheader = L.getLoopPreheader();
  const SCEV *Indicator = Parent.Blocks.lookup(Preheader);
  BasicBlock *Every = entryEveryIteration(L, DT);
  From = Every;
  if (Every && Every == Preheader)
    return true;
  if (Indicator && SE.isLoopInvariant(Indicator, &Outer)) {
    From = Preheader, Entered = Indicator;
    return true;
  }
  if (Every)
    return true;
  From = Preheader, Entered = Indicator;
  return Indicator;
}

/// The blocks of \p NL.L that do not dominate its latch, with their runs
/// where known and not zero.
void countInBranches(NestLoop &NL, const CountedLoop &C, Loop &Outer,
                     const CountedLoops &Counted, DominatorTree &DT,
                     ScalarEvolution &SE) {
  BasicBlock *Latch = NL.L->getLoopLatch();
  for (auto &[BB, Indicator] : C.Blocks) {
    if ((Latch && DT.dominates(BB, Latch)) || Indicator->isZero())
      continue;
    auto *Block = const_cast<BasicBlock *>(BB);
    if (SE.isLoopInvariant(Indicator, &Outer)) {
      NL.InBranches.push_back({Block, Indicator, nullptr, nullptr, nullptr});
      continue;
    }
    if (std::optional<Summed> S =
            countVarying(Indicator, nullptr, NL.L, BB, Outer, Counted, SE))
      NL.InBranches.push_back({Block, nullptr, S->Runs, S->Scope,
                               Counted.find(S->Scope)->second.From});
  }
}

/// The loops of the nest under \p Outer whose iterations per entry into
/// the nest are known there: \p Outer and, recursively, subloops of such
/// loops that are entered on every iteration, or on every iteration where
/// conditions that do not change in the nest hold, and whose trip counts
/// either do not change while the nest runs or sum in closed form over the
/// enclosing iterations (countVarying). Empty if \p Outer's own count is
/// unknown.
SmallVector<NestLoop, 8> countedNest(Loop &Outer, ScalarEvolution &SE,
                                     DominatorTree &DT, LoopInfo &LI) {
  SmallVector<NestLoop, 8> Nest;
  CountedLoops Counted;
  for (Loop *L : Outer.getLoopsInPreorder()) {
    BasicBlock *From = nullptr;
    const SCEV *Entered = nullptr;
    if (L != &Outer) {
      auto Parent = Counted.find(L->getParentLoop());
      if (Parent == Counted.end() ||
          !entryOf(*L, Parent->second, Outer, DT, SE, From, Entered))
        continue;
    }
    const SCEV *Taken = exactTakenCount(*L, SE);
    if (!Taken) {
      if (L == &Outer)
        return {};
      continue;
    }
    CountedLoop &C = Counted[L];
    C.Taken = Taken, C.From = From, C.Entered = Entered;
    NestLoop NL{L, nullptr, nullptr, L, From, {}};
    if (SE.isLoopInvariant(Taken, &Outer) &&
        (!Entered || SE.isLoopInvariant(Entered, &Outer))) {
      NL.Runs = timesEntered(headerRuns(Taken, SE), C, SE);
      if (exitsOnlyAtHeader(*L))
        NL.Completed = timesEntered(backedgesTaken(Taken, SE), C, SE);
    } else if (L == &Outer || !countVaryingLoop(NL, Outer, Counted, SE)) {
      Counted.erase(L);
      if (L == &Outer)
        return {};
      continue;
    }
    C.Blocks = blockIndicators(*L, Outer, LI, SE);
    countInBranches(NL, C, Outer, Counted, DT, SE);
    Nest.push_back(std::move(NL));
  }
  return Nest;
}

} // namespace

Value *saturatingMul(IRBuilderBase &B, Value *X, Value *Y, const Twine &Name) {
  Value *R = B.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow, X, Y);
  return B.CreateSelect(B.CreateExtractValue(R, 1),
                        Constant::getAllOnesValue(X->getType()),
                        B.CreateExtractValue(R, 0), Name);
}

namespace {

/// Where to reserve for the nest under \p Outer, whose counted loops are
/// \p Loops: as early as possible, so that nests that always run one after
/// the other share one reservation; but not before a branch that may skip
/// the nest (a guard, or the two versions of ReloadVersioning.h), where it
/// would reserve for a path not taken. Null where the counts cannot be
/// computed before the nest.
Instruction *reservationPoint(Loop &Outer, ArrayRef<NestLoop> Loops,
                              LoopInfo &LI, DominatorTree &DT,
                              PostDominatorTree &PDT, SCEVExpander &Exp) {
  auto SafeAt = [&](Instruction *At) {
    return all_of(Loops, [&](const NestLoop &NL) {
      return Exp.isSafeToExpandAt(NL.Runs, At) &&
             (!NL.Completed || Exp.isSafeToExpandAt(NL.Completed, At));
    });
  };
  BasicBlock *Preheader = Outer.getLoopPreheader();
  if (!SafeAt(Preheader->getTerminator()))
    return nullptr;
  BasicBlock *At = Preheader;
  while (DomTreeNode *Up = DT.getNode(At)->getIDom()) {
    BasicBlock *UpBB = Up->getBlock();
    if (LI.getLoopFor(UpBB) || !PDT.dominates(Preheader, UpBB) ||
        !SafeAt(UpBB->getTerminator()))
      break;
    At = UpBB;
  }
  return At->getTerminator();
}

/// Expands \p NL's counts at \p At into \p Result, where its parents'
/// are. A loop's runs per entry into the nest: its runs per run of the block
/// its scope is entered from times that block's runs, saturating (a
/// product past 2^64 asks for more than can be allocated, which the
/// reservation ignores). A block in a branch runs its indicator (0 or 1)
/// times the runs of the iterations, or its runs summed over the nest,
/// where those can be computed at At.
void expandBound(const NestLoop &NL, Instruction *At, IterationBoundMap &Result,
                 SCEVExpander &Exp) {
  IRBuilder<> B(At);
  auto Entries = [&](Loop *Scope, BasicBlock *From) -> Value * {
    if (!From)
      return nullptr; // Once per entry into the nest.
    return Result.lookup(Scope->getParentLoop()->getHeader()).runsOf(From);
  };
  auto Expand = [&](const SCEV *Runs, Value *Times) -> Value * {
    if (!Runs)
      return nullptr;
    Value *N = Exp.expandCodeFor(Runs, Runs->getType(), At);
    B.SetInsertPoint(At);
    return Times ? saturatingMul(B, Times, N, "ad.iterations") : N;
  };
  Value *Times = Entries(NL.Scope, NL.EnteredFrom);
  IterationBound Bound;
  Bound.At = At, Bound.Header = NL.L->getHeader();
  Bound.Iterations = Expand(NL.Runs, Times);
  Bound.Completed = Expand(NL.Completed, Times);
  for (const InBranch &IB : NL.InBranches) {
    const SCEV *S = IB.Indicator ? IB.Indicator : IB.Runs;
    if (!Exp.isSafeToExpandAt(S, At))
      continue;
    if (!IB.Indicator) {
      Bound.InBranches[IB.BB] = Expand(S, Entries(IB.Scope, IB.EnteredFrom));
      continue;
    }
    Value *On = Expand(S, nullptr);
    Bound.InBranches[IB.BB] =
        B.CreateMul(Bound.runsOf(IB.BB), On, "ad.iterations", /*HasNUW=*/true);
  }
  Result[NL.L->getHeader()] = std::move(Bound);
}

} // namespace

IterationBoundMap materializeIterationBounds(Function &F,
                                             FunctionAnalysisManager &FAM) {
  IterationBoundMap Result;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return Result;
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  SCEVExpander Exp(SE, "ad.bound");

  // Counts first: expanding changes the function, not its loops.
  struct NestBound {
    Instruction *At;
    SmallVector<NestLoop, 8> Loops;
  };
  SmallVector<NestBound, 8> Nests;
  for (Loop *Outer : LI) {
    if (!Outer->getLoopPreheader())
      continue;
    NestBound Nest{nullptr, countedNest(*Outer, SE, DT, LI)};
    if (Nest.Loops.empty() ||
        !(Nest.At = reservationPoint(*Outer, Nest.Loops, LI, DT, PDT, Exp)))
      continue;
    Nests.push_back(std::move(Nest));
  }
  // Innermost loops' runs per entry (IterationBound::PerEntry).
  struct EnteredLoop {
    Loop *L;
    const SCEV *Runs, *Completed;
  };
  SmallVector<EnteredLoop, 8> Entered;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && L->getLoopPreheader())
      if (const SCEV *Taken = exactTakenCount(*L, SE)) {
        EnteredLoop E{L, headerRuns(Taken, SE), nullptr};
        if (exitsOnlyAtHeader(*L))
          E.Completed = backedgesTaken(Taken, SE);
        Instruction *At = L->getLoopPreheader()->getTerminator();
        if (Exp.isSafeToExpandAt(E.Runs, At) &&
            (!E.Completed || Exp.isSafeToExpandAt(E.Completed, At)))
          Entered.push_back(E);
      }
  for (NestBound &Nest : Nests)
    for (NestLoop &NL : Nest.Loops)
      expandBound(NL, Nest.At, Result, Exp);
  for (const EnteredLoop &E : Entered) {
    Instruction *At = E.L->getLoopPreheader()->getTerminator();
    IterationBound &Bound = Result[E.L->getHeader()];
    Bound.Header = E.L->getHeader();
    Bound.PerEntry = Exp.expandCodeFor(E.Runs, E.Runs->getType(), At);
    if (E.Completed)
      Bound.CompletedPerEntry =
          Exp.expandCodeFor(E.Completed, E.Completed->getType(), At);
  }
  Exp.clear();
  if (!Nests.empty() || !Entered.empty())
    FAM.invalidate(F, PreservedAnalyses::none());
  return Result;
}

} // namespace ad
