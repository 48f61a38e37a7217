//===- ReloadVersioning.cpp - Reload loads that later writes provably miss ===//
#include "primal/ReloadVersioning.h"
#include "analysis/AccessIntervals.h"
#include "analysis/IterationOwnership.h"
#include "analysis/MemoryEffects.h"
#include "analysis/RegionFootprint.h"
#include "core/ParallelRegionCalls.h"
#include "core/PrimalMarks.h"
#include "rules/MathRules.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include <map>
#include <numeric>
#include <set>

#define DEBUG_TYPE "ad-reload"

using namespace llvm;

namespace ad {

namespace {

/// Pairs checked per function at most: the checks are quadratic in the
/// loads and writes of one function, and a function with more than this
/// many is left to the tape rather than made slow to compile.
constexpr unsigned MaxPairs = 20000;

/// A load or write: Base + Offset, Size bytes, in loop L. A parallel
/// region's call stands for what it reads, or writes, through one of its
/// arguments over all its threads (RegionFootprint.h).
struct Access {
  Instruction *I;
  const SCEV *Base, *Offset, *Size;
  Loop *L;
  /// Under which Offset and Size are what the access uses (WidenExtensions).
  Conjunction Assume;
};

/// What the reverse sweep may read back: a load's or store's value, or
/// what region call I reads through its argument Arg.
struct ReadSite {
  Instruction *I;
  int Arg = -1;
  /// Not a read: every location region call I's argument Arg points to
  /// belongs to one iteration of the region's worksharing loop
  /// (analysis/IterationOwnership.h), where the checks hold.
  bool Owns = false;
};

/// The row of an arithmetic instruction or a math call, or nullptr.
static const MathRule *mathRuleOf(const Instruction &I) {
  if (auto *Call = dyn_cast<CallBase>(&I))
    return lookupMathRule(*Call);
  return lookupInstructionRule(I.getOpcode());
}

/// Whether the reverse sweep may want \p V's value. The rows say what each
/// partial reads (MathRule::Reads): not V if only operations whose partials
/// read neither V nor their own result use it (sums, stores, phis, floor),
/// directly or through each other; yes where a partial reads it (x * y
/// needs y for x's adjoint), where a user's partial reads the user's own
/// result (a / x, exp(x): the result is recomputed from x or taped), and for
/// any user without a row.
static bool mayBeNeededInReverse(const Value *V) {
  if (!V->getType()->isFPOrFPVectorTy())
    return false;
  if (auto *I = dyn_cast<Instruction>(V)) {
    const MathRule *Rule = mathRuleOf(*I);
    if ((!Rule && isa<CallBase>(I)) || (Rule && partialReads(*Rule, Result)))
      return true;
  }
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const Value *, 8> Work{V};
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (Seen.size() > 32)
      return true;
    for (const Use &U : X->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return true;
      if (isa<StoreInst>(I))
        continue;
      if (isa<PHINode>(I)) {
        Work.push_back(I);
        continue;
      }
      const MathRule *Rule = mathRuleOf(*I);
      if (!Rule || partialReads(*Rule, U.getOperandNo()) ||
          partialReads(*Rule, Result))
        return true;
      Work.push_back(I);
    }
  }
  return false;
}

class ReloadVersioner {
public:
  ReloadVersioner(Function &F, FunctionAnalysisManager &FAM)
      : F(F), FAM(FAM), LI(FAM.getResult<LoopAnalysis>(F)),
        DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(F)),
        AAR(FAM.getResult<AAManager>(F)), Intervals(SE),
        DL(F.getParent()->getDataLayout()) {}

  std::optional<ReloadVersions> run();

private:
  std::optional<Access> accessOf(Instruction *I);
  std::optional<Access> accessOf(const ReadSite &R);
  /// What \p W may write of \p Loc, as accesses; nullopt if not all of it
  /// can be told.
  std::optional<SmallVector<Access, 2>> writesOf(Instruction *W,
                                                 const MemoryLocation &Loc);
  const RegionFootprint &footprintOf(CallBase &Region);
  /// Region call \p Region's accesses of \p Range from argument \p Arg.
  std::optional<Access> regionAccess(CallBase &Region, unsigned Arg,
                                     const OffsetRange &Range);
  /// The arguments of region call \p Region that it only reads through,
  /// within ranges this can tell.
  SmallVector<unsigned, 4> regionReads(CallBase &Region);
  std::optional<Access> newRegionAccess(CallBase &Region, unsigned Arg,
                                        const OffsetRange &Range);
  DenseMap<CallBase *, RegionFootprint> Footprints;
  std::map<std::tuple<CallBase *, unsigned, const SCEV *, const SCEV *>,
           std::optional<Access>>
      RegionAccesses;
  /// The outermost loop around \p L that is inside \p Around (Around null:
  /// the outermost of all).
  static const Loop *outermostInside(const Loop *L, const Loop *Around) {
    if (!L || L == Around)
      return nullptr;
    while (L->getParentLoop() != Around)
      L = L->getParentLoop();
    return L;
  }
  /// What excludes \p W from changing what \p Ld touched (see the
  /// header), as conditions that must all hold; nullopt if nothing here can.
  std::optional<SmallVector<Condition, 2>> pairCondition(const Access &Ld,
                                                         const Access &W);
  /// For a load at an address that does not change in its innermost loop,
  /// whose value a later write may change: what keeps every write inside
  /// that loop off it, so that the value is the same in all the loop's
  /// iterations (conditions that must all hold); nullopt if nothing here can.
  std::optional<SmallVector<Condition, 2>> inLoopCondition(Instruction *Ld,
                                                           const Access &LA);
  void addWholeRunDisjoint(const Access &Ld, const Access &W, Condition &C);
  /// A comparison that, when it holds, keeps \p W from running at all.
  std::optional<Compare> neverRuns(const Access &W);
  /// Criterion C: both at Base + X(common iteration) + something from the
  /// loops inside, X the same affine function for both, and X's strides
  /// far enough apart (a mixed radix) that no two common iterations'
  /// windows meet: attention's att[b][h][t][t2] written and read in loops
  /// b, t, h, whose rows interleave so that B's per-loop intervals meet.
  void addDistinctIterations(const Access &Ld, const Access &W,
                             ArrayRef<const Loop *> Common, Condition &C);
  /// Criterion B at the level of common loop \p Lc, whose outermost common
  /// loop is \p Outermost (and, if \p SameIterationToo, within one
  /// iteration of \p Lc, the write following the load).
  std::optional<Condition> laterIterations(const Access &Ld, const Access &W,
                                           const Loop *Lc,
                                           const Loop *Outermost,
                                           bool SameIterationToo);
  /// Adds \p C, or else the write never running (\p Skipped), to the
  /// conditions that must all hold; false when nothing in it can hold.
  bool addAlternatives(Condition C, std::optional<Compare> Skipped,
                       SmallVectorImpl<Condition> &All);
  /// Drops comparisons ScalarEvolution decides; false when \p C is known
  /// to fail. An empty result means it always holds.
  bool simplify(Condition &C);
  const SCEV *absolute(const Access &A, const SCEV *Offset);
  bool writeMayFollow(const Access &Ld, const Access &W, const Loop *Lc);
  Value *expand(const Condition &C, SCEVExpander &Exp, Instruction *At);
  /// \p S, with values computed later than \p At from values available
  /// there recomputed at \p At; nullptr if it cannot be evaluated there.
  const SCEV *atCheck(const SCEV *S, SCEVExpander &Exp, Instruction *At);
  /// A copy of \p V at \p At (V itself if available there), made unable
  /// to trap or produce poison; nullptr if it depends on more than
  /// arithmetic on values available at \p At.
  Value *hoist(Value *V, Instruction *At, unsigned Depth = 0);
  DenseMap<Instruction *, Value *> Hoisted;
  /// Blocks reachable from a block without passing a loop header again.
  DenseMap<std::pair<BasicBlock *, BasicBlock *>, DenseSet<BasicBlock *>>
      ReachableInIteration;
  /// (Lo, End) of the intervals built: Lo < End whenever the access runs.
  std::set<std::pair<const SCEV *, const SCEV *>> Below;
  /// Splits the function at \p At: from there on, a copy in which the
  /// accesses \p Unchanged are marked runs where \p OK holds.
  bool version(Instruction *At, Value *OK, ArrayRef<ReadSite> Unchanged,
               ArrayRef<bool> OnlyInLoop, DenseSet<const BasicBlock *> &Copy);

  Function &F;
  FunctionAnalysisManager &FAM;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  AAResults &AAR;
  IntervalFinder Intervals;
  const DataLayout &DL;
};

std::optional<Access> ReloadVersioner::accessOf(Instruction *I) {
  Value *Ptr = nullptr;
  const SCEV *Size = nullptr;
  Type *I64 = Type::getInt64Ty(F.getContext());
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
  WidenExtensions Widen(SE, Intervals, outermostInside(A.L, nullptr), A.Assume);
  A.Offset = Widen.visit(A.Offset);
  A.Size = Widen.visit(A.Size);
  return A;
}

const RegionFootprint &ReloadVersioner::footprintOf(CallBase &Region) {
  auto [It, New] = Footprints.try_emplace(&Region);
  if (New) {
    Function &Body = *Region.getCalledFunction();
    It->second =
        regionFootprint(Body, FAM.getResult<ScalarEvolutionAnalysis>(Body),
                        FAM.getResult<LoopAnalysis>(Body));
  }
  return It->second;
}

std::optional<Access> ReloadVersioner::regionAccess(CallBase &Region,
                                                    unsigned Arg,
                                                    const OffsetRange &Range) {
  // Once per range: rebuilding it in this function adds instructions.
  auto [It, New] =
      RegionAccesses.try_emplace({&Region, Arg, Range.Lo, Range.Hi});
  if (New)
    It->second = newRegionAccess(Region, Arg, Range);
  return It->second;
}

std::optional<Access>
ReloadVersioner::newRegionAccess(CallBase &Region, unsigned Arg,
                                 const OffsetRange &Range) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  Value *Ptr = Region.getArgOperand(Arg);
  const SCEV *Lo = regionBoundInCaller(Range.Lo, SE, Region, LI);
  const SCEV *Hi = regionBoundInCaller(Range.Hi, SE, Region, LI);
  if (!Lo || !Hi || Lo->getType() != I64 || Hi->getType() != I64 ||
      !SE.isSCEVable(Ptr->getType()))
    return std::nullopt;
  const SCEV *P = SE.getSCEV(Ptr);
  const SCEV *Base = SE.getPointerBase(P);
  const SCEV *Offset = SE.removePointerBase(P);
  if (!isa<SCEVUnknown>(Base) || isa<SCEVCouldNotCompute>(Offset) ||
      Offset->getType() != I64)
    return std::nullopt;
  Access A{&Region,
           Base,
           SE.getAddExpr(Offset, Lo),
           SE.getMinusSCEV(Hi, Lo),
           LI.getLoopFor(Region.getParent()),
           {}};
  WidenExtensions Widen(SE, Intervals, outermostInside(A.L, nullptr), A.Assume);
  A.Offset = Widen.visit(A.Offset);
  A.Size = Widen.visit(A.Size);
  return A;
}

std::optional<Access> ReloadVersioner::accessOf(const ReadSite &R) {
  if (R.Arg < 0)
    return accessOf(R.I);
  auto &Region = cast<CallBase>(*R.I);
  for (const ParameterFootprint &P : footprintOf(Region).Parameters)
    if (P.Arg == unsigned(R.Arg) && P.Reads)
      return regionAccess(Region, P.Arg, *P.Reads);
  return std::nullopt;
}

SmallVector<unsigned, 4> ReloadVersioner::regionReads(CallBase &Region) {
  SmallVector<unsigned, 4> Args;
  const RegionFootprint &FP = footprintOf(Region);
  for (const ParameterFootprint &P : FP.Parameters)
    if (P.Reads && !P.ReadsUnbounded && !P.Writes && !P.WritesUnbounded)
      Args.push_back(P.Arg);
  return Args;
}

std::optional<SmallVector<Access, 2>>
ReloadVersioner::writesOf(Instruction *W, const MemoryLocation &Loc) {
  auto *Region = dyn_cast<CallBase>(W);
  if (!Region || !isParallelRegionCall(*Region) ||
      !Region->getCalledFunction()) {
    if (std::optional<Access> A = accessOf(W))
      return SmallVector<Access, 2>{*A};
    return std::nullopt;
  }
  const RegionFootprint &FP = footprintOf(*Region);
  if (FP.WritesElsewhere)
    return std::nullopt;
  SmallVector<Access, 2> Out;
  for (const ParameterFootprint &P : FP.Parameters) {
    if (!P.Writes && !P.WritesUnbounded)
      continue;
    if (AAR.isNoAlias(
            MemoryLocation::getBeforeOrAfter(Region->getArgOperand(P.Arg)),
            Loc))
      continue;
    std::optional<Access> A;
    if (!P.WritesUnbounded)
      A = regionAccess(*Region, P.Arg, *P.Writes);
    if (!A)
      return std::nullopt;
    Out.push_back(*A);
  }
  return Out;
}

const SCEV *ReloadVersioner::absolute(const Access &A, const SCEV *Offset) {
  return SE.getAddExpr(
      SE.getPtrToIntExpr(A.Base, Type::getInt64Ty(F.getContext())), Offset);
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

void ReloadVersioner::addWholeRunDisjoint(const Access &Ld, const Access &W,
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

bool ReloadVersioner::writeMayFollow(const Access &Ld, const Access &W,
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
ReloadVersioner::laterIterations(const Access &Ld, const Access &W,
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

void ReloadVersioner::addDistinctIterations(const Access &Ld, const Access &W,
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

std::optional<Compare> ReloadVersioner::neverRuns(const Access &W) {
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
ReloadVersioner::pairCondition(const Access &Ld, const Access &W) {
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

std::optional<SmallVector<Condition, 2>>
ReloadVersioner::inLoopCondition(Instruction *Ld, const Access &LA) {
  const Loop *In = LA.L;
  if (!isa<LoadInst>(Ld) || !In ||
      !SE.isLoopInvariant(SE.getSCEV(cast<LoadInst>(Ld)->getPointerOperand()),
                          In))
    return std::nullopt;
  MemoryLocation Loc = MemoryLocation::get(Ld);
  SmallVector<Condition, 2> All;
  for (BasicBlock *BB : In->blocks())
    for (Instruction &W : *BB) {
      if (isa<LoadInst>(W) || !writesProgramMemory(W) ||
          !mayWrite(AAR, &W, Loc))
        continue;
      std::optional<Access> WA = accessOf(&W);
      if (!WA)
        return std::nullopt;
      // The write misses the load's location over the whole run (or never
      // runs): it cannot change the value between two iterations.
      Condition C;
      addWholeRunDisjoint(LA, *WA, C);
      if (!addAlternatives(C, neverRuns(*WA), All))
        return std::nullopt;
    }
  return All;
}

bool ReloadVersioner::addAlternatives(Condition C,
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

bool ReloadVersioner::simplify(Condition &C) {
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

Value *ReloadVersioner::hoist(Value *V, Instruction *At, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return V;
  if (auto It = Hoisted.find(I); It != Hoisted.end())
    return It->second;
  // nullptr while in progress: no cycles. (Not a reference into the map:
  // the operands' entries, added below, may move it.)
  Hoisted[I] = nullptr;
  if (Depth > 8 ||
      !(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<SelectInst>(I) ||
        isa<CmpInst>(I) || isa<GetElementPtrInst>(I)))
    return nullptr;
  SmallVector<Value *, 3> Ops;
  for (Value *Op : I->operands()) {
    Ops.push_back(hoist(Op, At, Depth + 1));
    if (!Ops.back())
      return nullptr;
  }
  // The copy runs where the original might not: a divisor that would trap
  // becomes 1 (the check's answer then concerns loads that never run).
  IRBuilder<> B(At);
  unsigned Opc = I->getOpcode();
  if (Opc == Instruction::SDiv || Opc == Instruction::UDiv ||
      Opc == Instruction::SRem || Opc == Instruction::URem) {
    Type *T = I->getType();
    Value *D = Ops[1];
    Ops[1] = B.CreateSelect(B.CreateICmpEQ(D, ConstantInt::get(T, 0)),
                            ConstantInt::get(T, 1), D);
    if (Opc == Instruction::SDiv || Opc == Instruction::SRem) {
      Value *Overflows = B.CreateAnd(
          B.CreateICmpEQ(D, ConstantInt::getAllOnesValue(T)),
          B.CreateICmpEQ(Ops[0],
                         ConstantInt::get(T, APInt::getSignedMinValue(
                                                 T->getScalarSizeInBits()))));
      Ops[0] = B.CreateSelect(Overflows, ConstantInt::get(T, 0), Ops[0]);
    }
  }
  Instruction *Copy = I->clone();
  for (unsigned K = 0; K < Ops.size(); ++K)
    Copy->setOperand(K, Ops[K]);
  Copy->dropPoisonGeneratingAnnotations();
  Copy->setDebugLoc(DebugLoc());
  Copy->insertBefore(At->getIterator());
  Copy->setName(I->getName() + ".check");
  return Hoisted[I] = Copy;
}

const SCEV *ReloadVersioner::atCheck(const SCEV *S, SCEVExpander &Exp,
                                     Instruction *At) {
  if (Exp.isSafeToExpandAt(S, At))
    return S;
  ValueToSCEVMapTy Map;
  bool Fails = false;
  SCEVExprContains(S, [&](const SCEV *U) {
    auto *Unk = dyn_cast<SCEVUnknown>(U);
    auto *I = Unk ? dyn_cast<Instruction>(Unk->getValue()) : nullptr;
    if (!I || DT.dominates(I, At))
      return false;
    Value *H = hoist(I, At);
    if (!H || !SE.isSCEVable(H->getType())) {
      Fails = true;
      return true;
    }
    Map[I] = SE.getSCEV(H);
    return false;
  });
  if (Fails)
    return nullptr;
  S = SCEVParameterRewriter::rewrite(S, SE, Map);
  return Exp.isSafeToExpandAt(S, At) ? S : nullptr;
}

Value *ReloadVersioner::expand(const Condition &C, SCEVExpander &Exp,
                               Instruction *At) {
  IRBuilder<> B(At);
  Value *Any = nullptr;
  for (const Conjunction &Conj : C) {
    Value *All = nullptr;
    for (const Compare &Cmp : Conj) {
      Type *T = Cmp.Lhs->getType();
      Value *L = Exp.expandCodeFor(Cmp.Lhs, T, At);
      Value *R = Exp.expandCodeFor(Cmp.Rhs, T, At);
      Value *V = B.CreateICmp(Cmp.Pred, L, R, "ad.nooverwrite");
      All = All ? B.CreateAnd(All, V) : V;
    }
    Any = Any ? B.CreateOr(Any, All) : All;
  }
  return Any ? Any : B.getTrue();
}

std::optional<ReloadVersions> ReloadVersioner::run() {
  if (LI.empty() && !hasParallelRegionCall(F))
    return std::nullopt;
  SmallVector<Instruction *, 32> Writers;
  // What the reverse sweep would reload: floating-point values loaded in a
  // loop, and those stored in one (the value is then read back from where
  // it was stored).
  // And what a parallel region reads through an argument: its body's
  // derivative reloads it then (in its own loops, wherever the call is).
  SmallVector<ReadSite, 32> Reads;
  for (Instruction &I : instructions(F)) {
    auto *Ld = dyn_cast<LoadInst>(&I);
    auto *St = dyn_cast<StoreInst>(&I);
    if ((Ld && Ld->isSimple() && mayBeNeededInReverse(Ld)) ||
        (St && St->isSimple() && mayBeNeededInReverse(St->getValueOperand())))
      if (LI.getLoopFor(I.getParent()))
        Reads.push_back({&I});
    if (auto *Region = dyn_cast<CallBase>(&I);
        Region && isParallelRegionCall(*Region) && Region->getCalledFunction())
      for (unsigned Arg : regionReads(*Region))
        Reads.push_back({&I, int(Arg)});
    // Only gradients are versioned: their deferred frees run after every
    // read back (DeferredFrees.h).
    if (!Ld && writesProgramMemory(I) && !isDeferredFree(I))
      Writers.push_back(&I);
  }
  // Region arguments each iteration owns where comparisons the compiler
  // could not decide hold: checked here, with the rest.
  SmallVector<std::pair<ReadSite, Condition>, 4> Owned;
  for (Instruction &I : instructions(F)) {
    auto *Region = dyn_cast<CallBase>(&I);
    Function *Body = Region ? Region->getCalledFunction() : nullptr;
    if (!Body || !isParallelRegionCall(*Region))
      continue;
    SmallVector<OwnershipCheck, 2> Vouchable;
    iterationOwnedParameters(*Body,
                             FAM.getResult<ScalarEvolutionAnalysis>(*Body),
                             FAM.getResult<LoopAnalysis>(*Body), &Vouchable);
    for (const OwnershipCheck &Check : Vouchable) {
      Condition All;
      Conjunction Each;
      for (auto [A, B] : Check.AtMost) {
        const SCEV *CA = regionBoundInCaller(A, SE, *Region, LI);
        const SCEV *CB = regionBoundInCaller(B, SE, *Region, LI);
        if (!CA || !CB || CA->getType() != CB->getType()) {
          Each.clear();
          break;
        }
        Each.push_back({CmpInst::ICMP_SLE, CA, CB});
      }
      if (Each.empty())
        continue;
      All.push_back(std::move(Each));
      if (simplify(All))
        Owned.push_back({ReadSite{Region, int(Check.Arg), true}, All});
    }
  }
  if ((Reads.empty() && Owned.empty()) ||
      Reads.size() * Writers.size() > MaxPairs)
    return std::nullopt;

  // Accesses some write may change, and what rules that out for each write.
  SmallVector<ReadSite, 32> Unchanged;
  SmallVector<bool, 32> OnlyInLoop; // Per access: vouched for in its loop.
  SmallVector<Condition, 64> Checks;
  SmallVector<unsigned, 32> FirstCheck; // Per kept access, its first check.
  for (const ReadSite &Site : Reads) {
    Instruction *Ld = Site.I;
    MemoryLocation Loc = Site.Arg < 0
                             ? MemoryLocation::get(Ld)
                             : MemoryLocation::getBeforeOrAfter(
                                   cast<CallBase>(Ld)->getArgOperand(Site.Arg));
    std::optional<Access> LA;
    SmallVector<Condition, 8> Mine;
    bool Possible = true, Needed = false;
    for (Instruction *W : Writers) {
      if (!mayWrite(AAR, W, Loc))
        continue;
      Needed = true;
      if (!LA)
        LA = accessOf(Site);
      std::optional<SmallVector<Access, 2>> WAs;
      if (LA)
        WAs = writesOf(W, Loc);
      bool Known = WAs.has_value();
      for (const Access &WA : WAs ? *WAs : ArrayRef<Access>()) {
        std::optional<SmallVector<Condition, 2>> C = pairCondition(*LA, WA);
        if (!C) {
          Known = false;
          break;
        }
        append_range(Mine, *C);
      }
      if (!Known) {
        LLVM_DEBUG(dbgs() << "ad-reload: " << *Ld
                          << "\n  may be overwritten by " << *W << "\n");
        Possible = false;
        break;
      }
    }
    LLVM_DEBUG(dbgs() << "ad-reload: " << *Ld << " needed " << Needed
                      << " possible " << Possible << " checks " << Mine.size()
                      << "\n");
    if (!Needed)
      continue;
    if (!Possible) {
      // Changed later (the next pass of an outer loop rewrites it), but
      // perhaps not inside its own loop: then the reverse sweep keeps one
      // copy per entry into that loop instead of one per iteration.
      std::optional<SmallVector<Condition, 2>> InLoop;
      if (!LA)
        LA = accessOf(Site);
      if (LA && Site.Arg < 0)
        InLoop = inLoopCondition(Ld, *LA);
      if (!InLoop)
        continue;
      Mine = std::move(*InLoop);
    }
    Unchanged.push_back(Site);
    OnlyInLoop.push_back(!Possible);
    FirstCheck.push_back(Checks.size());
    append_range(Checks, Mine);
  }
  for (auto &[Site, C] : Owned) {
    Unchanged.push_back(Site);
    OnlyInLoop.push_back(false);
    FirstCheck.push_back(Checks.size());
    if (!C.empty())
      Checks.push_back(C);
  }
  if (Unchanged.empty())
    return std::nullopt;

  // Where to check: outside all loops, before every such load, on the way
  // to the return.
  BasicBlock *CheckBB = Unchanged.front().I->getParent();
  for (const ReadSite &Ld : Unchanged)
    CheckBB = DT.findNearestCommonDominator(CheckBB, Ld.I->getParent());
  if (Loop *L = LI.getLoopFor(CheckBB)) {
    while (L->getParentLoop())
      L = L->getParentLoop();
    CheckBB = L->getLoopPreheader();
  }
  BasicBlock *ReturnBB = nullptr;
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()))
      ReturnBB = &BB;
  // Above the loops' guards too: the whole rest of the function is
  // versioned, down to its one return.
  while (CheckBB && ReturnBB && !DT.dominates(CheckBB, ReturnBB))
    CheckBB = DT.getNode(CheckBB)->getIDom()->getBlock();
  if (!CheckBB || !ReturnBB || LI.getLoopFor(CheckBB))
    return std::nullopt;

  // Loads whose checks cannot be evaluated there stay taped.
  // Before a region call that block holds itself (calls, unlike the loads,
  // may run outside loops): the block ends there.
  Instruction *At = CheckBB->getTerminator();
  for (const ReadSite &Site : Unchanged)
    if (Site.I->getParent() == CheckBB && Site.I->comesBefore(At))
      At = Site.I;
  if (At != CheckBB->getTerminator()) {
    SplitBlock(CheckBB, At, &DT, &LI);
    SE.forgetBlockAndLoopDispositions();
    At = CheckBB->getTerminator();
  }
  SCEVExpander Exp(SE, "ad.check");
  SmallVector<ReadSite, 32> Kept;
  SmallVector<bool, 32> KeptOnlyInLoop;
  SmallVector<const Condition *, 64> KeptChecks;
  FirstCheck.push_back(Checks.size());
  for (unsigned K = 0; K < Unchanged.size(); ++K) {
    MutableArrayRef<Condition> Mine(Checks.begin() + FirstCheck[K],
                                    Checks.begin() + FirstCheck[K + 1]);
    bool Expandable = true;
    for (Condition &C : Mine)
      for (Conjunction &Conj : C)
        for (Compare &Cmp : Conj) {
          Cmp.Lhs = atCheck(Cmp.Lhs, Exp, At);
          Cmp.Rhs = atCheck(Cmp.Rhs, Exp, At);
          Expandable &= Cmp.Lhs && Cmp.Rhs;
        }
    if (!Expandable) {
      continue;
    }
    Kept.push_back(Unchanged[K]);
    KeptOnlyInLoop.push_back(OnlyInLoop[K]);
    for (const Condition &C : Mine)
      KeptChecks.push_back(&C);
  }
  LLVM_DEBUG(dbgs() << "ad-reload: " << Unchanged.size() << " candidates, "
                    << Kept.size() << " expandable at " << CheckBB->getName()
                    << "\n");
  if (Kept.empty())
    return std::nullopt;
  LLVM_DEBUG(dbgs() << "ad-reload: " << F.getName() << ": " << Kept.size()
                    << " loads reloaded after " << KeptChecks.size()
                    << " run-time checks\n");

  // Identical checks (one write against several loads of one array) are
  // expanded once.
  std::set<std::vector<std::tuple<unsigned, const SCEV *, const SCEV *>>> Seen;
  Value *OK = nullptr;
  IRBuilder<> B(At);
  for (const Condition *C : KeptChecks) {
    std::vector<std::tuple<unsigned, const SCEV *, const SCEV *>> Key;
    for (const Conjunction &Conj : *C) {
      for (const Compare &Cmp : Conj)
        Key.emplace_back(unsigned(Cmp.Pred), Cmp.Lhs, Cmp.Rhs);
      Key.emplace_back(~0u, nullptr, nullptr);
    }
    if (!Seen.insert(std::move(Key)).second)
      continue;
    Value *V = expand(*C, Exp, At);
    OK = OK ? B.CreateAnd(OK, V) : V;
  }
  Exp.clear();
  // Arithmetic flags ScalarEvolution proved for the loops' own runs may not
  // hold out here, where the loops may not run: no branching on poison.
  OK = OK ? B.CreateFreeze(OK, "ad.nooverwrite") : B.getTrue();
  ReloadVersions Result;
  Result.InLoop = count(KeptOnlyInLoop, true);
  Result.RegionArguments =
      count_if(Kept, [](const ReadSite &R) { return R.Arg >= 0 && !R.Owns; });
  Result.RegionOwned = count_if(Kept, [](const ReadSite &R) { return R.Owns; });
  Result.Accesses =
      Kept.size() - Result.InLoop - Result.RegionArguments - Result.RegionOwned;
  Result.Checks = Seen.size();
  if (!version(At, OK, Kept, KeptOnlyInLoop, Result.CheckedCopy))
    return std::nullopt;
  return Result;
}

bool ReloadVersioner::version(Instruction *At, Value *OK,
                              ArrayRef<ReadSite> Unchanged,
                              ArrayRef<bool> OnlyInLoop,
                              DenseSet<const BasicBlock *> &Copy) {
  BasicBlock *CheckBB = At->getParent();
  BasicBlock *Rest = SplitBlock(CheckBB, At);
  DominatorTree Dom(F);
  SmallVector<BasicBlock *, 64> Region;
  for (BasicBlock &BB : F)
    if (Dom.dominates(Rest, &BB))
      Region.push_back(&BB);
  SmallPtrSet<BasicBlock *, 32> InRegion(Region.begin(), Region.end());
  // The rest of the function: everything it reaches it dominates, down to
  // the return (else F is left with the checks unused; the caller drops it).
  ReturnInst *Ret = nullptr;
  bool Closed = true;
  for (BasicBlock *BB : Region) {
    if (auto *R = dyn_cast<ReturnInst>(BB->getTerminator()))
      Ret = R;
    for (BasicBlock *Succ : successors(BB))
      Closed &= InRegion.contains(Succ);
  }
  if (!Ret || !Closed)
    return false;

  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 64> Copies;
  for (BasicBlock *BB : Region) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".kept", &F);
    VMap[BB] = C;
    Copies.push_back(C);
    Copy.insert(C);
  }
  remapInstructionsInBlocks(Copies, VMap);
  for (auto [Site, InLoop] : zip(Unchanged, OnlyInLoop)) {
    auto *Copy = cast<Instruction>(VMap[Site.I]);
    if (Site.Owns)
      markOwnedArguments(cast<CallBase>(*Copy), uint64_t(1) << Site.Arg);
    else if (Site.Arg >= 0)
      markUnchangedArguments(cast<CallBase>(*Copy), uint64_t(1) << Site.Arg);
    else if (InLoop)
      markUnchangedInItsLoop(*Copy);
    else
      markUnchangedAfterAccess(*Copy);
  }

  CheckBB->getTerminator()->eraseFromParent();
  BranchInst::Create(cast<BasicBlock>(VMap[Rest]), Rest, OK, CheckBB);

  // One return block, as the reverse builder wants.
  auto *RetCopy = cast<ReturnInst>(VMap[Ret]);
  BasicBlock *Join = BasicBlock::Create(F.getContext(), "ad.return", &F);
  IRBuilder<> B(Join);
  ReturnInst *NewRet;
  if (Value *V = Ret->getReturnValue()) {
    PHINode *Phi = B.CreatePHI(V->getType(), 2);
    Phi->addIncoming(V, Ret->getParent());
    Phi->addIncoming(RetCopy->getReturnValue(), RetCopy->getParent());
    NewRet = B.CreateRet(Phi);
  } else {
    NewRet = B.CreateRetVoid();
  }
  NewRet->setDebugLoc(Ret->getDebugLoc());
  for (ReturnInst *R : {Ret, RetCopy}) {
    BranchInst::Create(Join, R->getParent())->setDebugLoc(R->getDebugLoc());
    R->eraseFromParent();
  }
  return true;
}

} // namespace

std::optional<ReloadVersions> versionForReloads(Function &F,
                                                FunctionAnalysisManager &FAM) {
  std::optional<ReloadVersions> Result = ReloadVersioner(F, FAM).run();
  if (Result)
    FAM.invalidate(F, PreservedAnalyses::none());
  return Result;
}

} // namespace ad
