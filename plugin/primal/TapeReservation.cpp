//===- TapeReservation.cpp - How much tape a loop nest will push ----------===//
#include "primal/TapeReservation.h"
#include "llvm/Analysis/LoopInfo.h"
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

/// A counted loop of a nest: its header's runs per entry and, where only
/// the header exits, its other blocks' (i64 SCEVs); and the block of its
/// parent it is entered from (null for the outermost).
struct NestLoop {
  Loop *L;
  const SCEV *Runs, *Completed;
  BasicBlock *EnteredFrom;
};

/// The loops of the nest under \p Outer whose iterations per entry into
/// the nest are known there: \p Outer and, recursively, subloops of such
/// loops entered on every iteration whose trip counts do not change while
/// the nest runs. Empty if \p Outer's own count is unknown.
SmallVector<NestLoop, 8> countedNest(Loop &Outer, ScalarEvolution &SE,
                                     DominatorTree &DT) {
  SmallVector<NestLoop, 8> Nest;
  SmallPtrSet<Loop *, 8> Counted;
  for (Loop *L : Outer.getLoopsInPreorder()) {
    BasicBlock *From = nullptr;
    if (L != &Outer && (!Counted.contains(L->getParentLoop()) ||
                        !(From = entryEveryIteration(*L, DT))))
      continue;
    const SCEV *Taken = exactTakenCount(*L, SE);
    if (!Taken || !SE.isLoopInvariant(Taken, &Outer)) {
      if (L == &Outer)
        return {};
      continue;
    }
    Counted.insert(L);
    Nest.push_back({L, headerRuns(Taken, SE),
                    exitsOnlyAtHeader(*L) ? backedgesTaken(Taken, SE) : nullptr,
                    From});
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
    BasicBlock *Preheader = Outer->getLoopPreheader();
    if (!Preheader)
      continue;
    NestBound Nest{nullptr, countedNest(*Outer, SE, DT)};
    if (Nest.Loops.empty())
      continue;
    // As early as possible, so that nests that always run one after the
    // other share one reservation; but not before a branch that may skip
    // the nest (a guard, or the two versions of ReloadVersioning.h), where
    // it would reserve for a path not taken.
    auto SafeAt = [&](Instruction *At) {
      return all_of(Nest.Loops, [&](const NestLoop &NL) {
        return Exp.isSafeToExpandAt(NL.Runs, At) &&
               (!NL.Completed || Exp.isSafeToExpandAt(NL.Completed, At));
      });
    };
    if (!SafeAt(Preheader->getTerminator()))
      continue;
    BasicBlock *At = Preheader;
    while (DomTreeNode *Up = DT.getNode(At)->getIDom()) {
      BasicBlock *UpBB = Up->getBlock();
      if (LI.getLoopFor(UpBB) || !PDT.dominates(Preheader, UpBB) ||
          !SafeAt(UpBB->getTerminator()))
        break;
      At = UpBB;
    }
    Nest.At = At->getTerminator();
    Nests.push_back(std::move(Nest));
  }

  // A loop's runs per entry into the nest: its runs per entry times the
  // runs of the block of its parent it is entered from, saturating (a
  // product past 2^64 asks for more than can be allocated, which the
  // reservation ignores).
  IRBuilder<> B(F.getContext());
  for (NestBound &Nest : Nests)
    for (NestLoop &NL : Nest.Loops) {
      Value *Entries = nullptr; // Null: once per entry into the nest.
      if (NL.EnteredFrom)
        Entries = Result.lookup(NL.L->getParentLoop()->getHeader())
                      .runsOf(NL.EnteredFrom);
      auto Expand = [&](const SCEV *Runs) -> Value * {
        if (!Runs)
          return nullptr;
        Value *N = Exp.expandCodeFor(Runs, Runs->getType(), Nest.At);
        B.SetInsertPoint(Nest.At);
        return Entries ? saturatingMul(B, Entries, N, "ad.iterations") : N;
      };
      Value *Iterations = Expand(NL.Runs), *Completed = Expand(NL.Completed);
      Result[NL.L->getHeader()] = {Nest.At, NL.L->getHeader(), Iterations,
                                   Completed};
    }
  Exp.clear();
  if (!Nests.empty())
    FAM.invalidate(F, PreservedAnalyses::none());
  return Result;
}

} // namespace ad
