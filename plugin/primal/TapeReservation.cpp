//===- TapeReservation.cpp - How much tape a loop nest will push ----------===//
#include "primal/TapeReservation.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace ad {

namespace {

/// At most how many times \p L's body runs per entry, as an i64 SCEV: the
/// trip count in the loop's own type, clamped at zero (see the header).
const SCEV *tripBound(Loop &L, ScalarEvolution &SE) {
  const SCEV *Taken = SE.getSymbolicMaxBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken) || !Taken->getType()->isIntegerTy() ||
      Taken->getType()->getIntegerBitWidth() > 64)
    return nullptr;
  Type *Ty = Taken->getType();
  const SCEV *Trips = SE.getAddExpr(Taken, SE.getOne(Ty));
  Trips = SE.getSMaxExpr(Trips, SE.getZero(Ty));
  return SE.getNoopOrZeroExtend(Trips, Type::getInt64Ty(Ty->getContext()));
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

  // Bounds first: expanding changes the function, not its loops.
  struct NestBound {
    Instruction *At;
    SmallVector<std::pair<Loop *, const SCEV *>, 8> Iterations;
  };
  SmallVector<NestBound, 8> Nests;
  for (Loop *Outer : LI) {
    BasicBlock *Preheader = Outer->getLoopPreheader();
    if (!Preheader)
      continue;
    NestBound Nest;
    DenseMap<Loop *, const SCEV *> Iterations;
    bool Bounded = true;
    for (Loop *L : Outer->getLoopsInPreorder()) {
      const SCEV *Trips = tripBound(*L, SE);
      if (!Trips || !SE.isLoopInvariant(Trips, Outer)) {
        Bounded = false;
        break;
      }
      const SCEV *N =
          L == Outer ? Trips
                     : SE.getMulExpr(Iterations[L->getParentLoop()], Trips);
      Iterations[L] = N;
      Nest.Iterations.push_back({L, N});
    }
    if (!Bounded)
      continue;
    // As early as possible, so that nests that always run one after the
    // other share one reservation; but not before a branch that may skip
    // the nest (a guard, or the two versions of ReloadVersioning.h), where
    // it would reserve for a path not taken.
    auto SafeAt = [&](Instruction *At) {
      return all_of(Nest.Iterations, [&](auto &LN) {
        return Exp.isSafeToExpandAt(LN.second, At);
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

  for (NestBound &Nest : Nests)
    for (auto &[L, N] : Nest.Iterations) {
      Value *V =
          Exp.expandCodeFor(N, Type::getInt64Ty(F.getContext()), Nest.At);
      Result[L->getHeader()] = {Nest.At, V};
    }
  Exp.clear();
  if (!Nests.empty())
    FAM.invalidate(F, PreservedAnalyses::none());
  return Result;
}

} // namespace ad
