//===- ReloadVersioning.cpp - Reload loads that later writes provably miss ===//
#include "primal/ReloadVersioning.h"
#include "analysis/AccessIntervals.h"
#include "analysis/IterationOwnership.h"
#include "analysis/MemoryEffects.h"
#include "analysis/OverwriteConditions.h"
#include "analysis/RegionFootprint.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "core/PrimalMarks.h"
#include "rules/MathRules.h"
#include "llvm/ADT/MapVector.h"
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

/// What the reverse sweep may read back: a load's or store's value, or
/// what region call I reads through its argument Arg.
struct ReadSite {
  Instruction *I;
  int Arg = -1;
  /// Not a read: every location region call I's argument Arg points to
  /// belongs to one iteration of the region's worksharing loop
  /// (analysis/IterationOwnership.h), where the checks hold.
  bool Owns = false;
  /// What region call I writes through its argument Arg (which each
  /// iteration owns), for its adjoint to read back: nothing after the call
  /// may change it, nor may the region's writes through other arguments.
  bool Written = false;
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
        AAR(FAM.getResult<AAManager>(F)), Overwrites(SE, LI, DT) {}

  std::optional<ReloadVersions> run();

private:
  std::optional<Access> accessOf(Instruction *I);
  std::optional<Access> accessOf(const ReadSite &R);
  /// What \p W may write of \p Loc, as accesses; nullopt if not all of it
  /// can be told.
  /// (Not region call \p W's writes through argument \p Own: what a
  /// Written site keeps.)
  std::optional<SmallVector<Access, 2>>
  writesOf(Instruction *W, const MemoryLocation &Loc, int Own = -1);
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
  /// For a load at an address that does not change in its innermost loop,
  /// whose value a later write may change: what keeps every write inside
  /// that loop off it, so that the value is the same in all the loop's
  /// iterations (conditions that must all hold); nullopt if nothing here can.
  std::optional<SmallVector<Condition, 2>> inLoopCondition(Instruction *Ld,
                                                           const Access &LA);
  /// \p S, with values computed later than \p At from values available
  /// there recomputed at \p At; nullptr if it cannot be evaluated there.
  const SCEV *atCheck(const SCEV *S, SCEVExpander &Exp, Instruction *At);
  /// A copy of \p V at \p At (V itself if available there), made unable
  /// to trap or produce poison; nullptr if it depends on more than
  /// arithmetic on values available at \p At.
  Value *hoist(Value *V, Instruction *At, unsigned Depth = 0);
  DenseMap<Instruction *, Value *> Hoisted;
  /// Splits the function at \p At: from there on, a copy in which the
  /// accesses \p Unchanged are marked runs where \p OK holds.
  /// \p WrittenOK: per region call, where its Written sites' checks hold
  /// (the checked copy calls it kept there, as it was elsewhere).
  bool version(Instruction *At, Value *OK, ArrayRef<ReadSite> Unchanged,
               ArrayRef<bool> OnlyInLoop,
               const DenseMap<Instruction *, Value *> &WrittenOK,
               DenseSet<const BasicBlock *> &Copy);

  Function &F;
  FunctionAnalysisManager &FAM;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  AAResults &AAR;
  OverwriteConditions Overwrites;
};

std::optional<Access> ReloadVersioner::accessOf(Instruction *I) {
  return accessOfInstruction(I, SE, LI, Overwrites.intervals());
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
  WidenExtensions Widen(SE, Overwrites.intervals(),
                        outermostInside(A.L, nullptr), A.Assume);
  A.Offset = Widen.visit(A.Offset);
  A.Size = Widen.visit(A.Size);
  return A;
}

std::optional<Access> ReloadVersioner::accessOf(const ReadSite &R) {
  if (R.Arg < 0)
    return accessOf(R.I);
  auto &Region = cast<CallBase>(*R.I);
  for (const ParameterFootprint &P : footprintOf(Region).Parameters)
    if (P.Arg == unsigned(R.Arg) && (R.Written ? P.Writes : P.Reads))
      return regionAccess(Region, P.Arg, R.Written ? *P.Writes : *P.Reads);
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
ReloadVersioner::writesOf(Instruction *W, const MemoryLocation &Loc, int Own) {
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
    if ((!P.Writes && !P.WritesUnbounded) || int(P.Arg) == Own)
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
      Overwrites.addWholeRunDisjoint(LA, *WA, C);
      if (!Overwrites.addAlternatives(C, Overwrites.neverRuns(*WA), All))
        return std::nullopt;
    }
  return All;
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
  if (Ops.size() == 2)
    makeDivisionSafe(B, I->getOpcode(), Ops[0], Ops[1]);
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
    uint64_t Ownable = iterationOwnedParameters(
                           *Body, FAM.getResult<ScalarEvolutionAnalysis>(*Body),
                           FAM.getResult<LoopAnalysis>(*Body), &Vouchable)
                           .Params;
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
      if (Overwrites.simplify(All))
        Owned.push_back({ReadSite{Region, int(Check.Arg), true}, All});
    }
    // What the region writes through the arguments its iterations own
    // (shown, or where the checks above hold), for its adjoint to read
    // back. Not in a loop: the next pass's call would write it again.
    const RegionFootprint &FP = footprintOf(*Region);
    if (LI.getLoopFor(Region->getParent()) || FP.WritesElsewhere)
      continue;
    for (const OwnershipCheck &Check : Vouchable)
      Ownable |= uint64_t(1) << Check.Arg;
    for (const ParameterFootprint &P : FP.Parameters)
      if (P.Arg < 64 && (Ownable >> P.Arg & 1) && P.Writes &&
          !P.WritesUnbounded)
        Reads.push_back({Region, int(P.Arg), false, true});
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
        WAs = writesOf(W, Loc, W == Site.I && Site.Written ? Site.Arg : -1);
      bool Known = WAs.has_value();
      for (const Access &WA : WAs ? *WAs : ArrayRef<Access>()) {
        std::optional<SmallVector<Condition, 2>> C =
            Overwrites.pairCondition(*LA, WA);
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
  // A Written site's checks choose between two calls of its region in the
  // checked copy, not between the copies: a region's output that the
  // function overwrites later, or that a loose bound makes seem to overlap
  // another, must not cost every other read back.
  MapVector<Instruction *, SmallVector<const Condition *, 4>> WrittenChecks;
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
      if (Unchanged[K].Written)
        WrittenChecks[Unchanged[K].I].push_back(&C);
      else
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
    Value *V = expandCondition(*C, Exp, At);
    OK = OK ? B.CreateAnd(OK, V) : V;
  }
  DenseMap<Instruction *, Value *> WrittenOK;
  for (auto &[Call, Conditions] : WrittenChecks) {
    Value *CallOK = nullptr;
    for (const Condition *C : Conditions) {
      Value *V = expandCondition(*C, Exp, At);
      CallOK = CallOK ? B.CreateAnd(CallOK, V) : V;
    }
    WrittenOK[Call] = CallOK ? B.CreateFreeze(CallOK) : B.getTrue();
  }
  Exp.clear();
  // Arithmetic flags ScalarEvolution proved for the loops' own runs may not
  // hold out here, where the loops may not run: no branching on poison.
  OK = OK ? B.CreateFreeze(OK, "ad.nooverwrite") : B.getTrue();
  ReloadVersions Result;
  Result.InLoop = count(KeptOnlyInLoop, true);
  Result.RegionArguments = count_if(Kept, [](const ReadSite &R) {
    return R.Arg >= 0 && !R.Owns && !R.Written;
  });
  Result.RegionOwned = count_if(Kept, [](const ReadSite &R) { return R.Owns; });
  Result.RegionWritten =
      count_if(Kept, [](const ReadSite &R) { return R.Written; });
  Result.Accesses = Kept.size() - Result.InLoop - Result.RegionArguments -
                    Result.RegionOwned - Result.RegionWritten;
  Result.Checks = Seen.size();
  if (!version(At, OK, Kept, KeptOnlyInLoop, WrittenOK, Result.CheckedCopy))
    return std::nullopt;
  return Result;
}

bool ReloadVersioner::version(Instruction *At, Value *OK,
                              ArrayRef<ReadSite> Unchanged,
                              ArrayRef<bool> OnlyInLoop,
                              const DenseMap<Instruction *, Value *> &WrittenOK,
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
    else if (Site.Written)
      markKeptWrittenArguments(cast<CallBase>(*Copy), uint64_t(1) << Site.Arg);
    else if (Site.Arg >= 0)
      markUnchangedArguments(cast<CallBase>(*Copy), uint64_t(1) << Site.Arg);
    else if (InLoop)
      markUnchangedInItsLoop(*Copy);
    else
      markUnchangedAfterAccess(*Copy);
  }
  // A region call whose kept writes have checks of their own: called kept
  // where they hold, plain (with its other marks) where not.
  for (auto &[Orig, CallOK] : WrittenOK) {
    if (auto *C = dyn_cast<ConstantInt>(CallOK); C && C->isOne())
      continue;
    auto *Kept = cast<CallBase>(VMap[Orig]);
    if (!Kept->getType()->isVoidTy()) {
      clearKeptWrittenArguments(*Kept);
      continue;
    }
    auto *Plain = cast<CallBase>(Kept->clone());
    clearKeptWrittenArguments(*Plain);
    BasicBlock *Head = Kept->getParent();
    BasicBlock *Tail = SplitBlock(Head, Kept->getNextNode());
    BasicBlock *KeptBB = SplitBlock(Head, Kept);
    BasicBlock *PlainBB =
        BasicBlock::Create(F.getContext(), "ad.plain.writes", &F, Tail);
    Plain->insertInto(PlainBB, PlainBB->end());
    BranchInst::Create(Tail, PlainBB);
    Head->getTerminator()->eraseFromParent();
    BranchInst::Create(KeptBB, PlainBB, CallOK, Head);
    Copy.insert(KeptBB);
    Copy.insert(PlainBB);
    Copy.insert(Tail);
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

Value *expandCondition(const Condition &C, SCEVExpander &Exp, Instruction *At) {
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

std::optional<ReloadVersions> versionForReloads(Function &F,
                                                FunctionAnalysisManager &FAM) {
  std::optional<ReloadVersions> Result = ReloadVersioner(F, FAM).run();
  if (Result)
    FAM.invalidate(F, PreservedAnalyses::none());
  return Result;
}

} // namespace ad
