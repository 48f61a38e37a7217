//===- CountedLoops.cpp - Loops the reverse sweep can run without a tape --===//
#include "primal/CountedLoops.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include <algorithm>
#include <optional>

using namespace llvm;

namespace ad {

namespace {

/// An induction variable found before anything is expanded.
struct FoundIV {
  PHINode *Phi;
  const SCEVAddRecExpr *AR;
  const SCEV *Last; ///< Its value in the last iteration.
};

/// The induction variables of \p L that the reverse sweep can count down:
/// affine, constant step, never revisiting a value (so "back at the start"
/// means "first iteration"), last value expandable in the preheader.
std::optional<FoundIV> countable(PHINode &Phi, Loop &L, ScalarEvolution &SE,
                                 const SCEV *Trips, SCEVExpander &Exp) {
  if (!Phi.getType()->isIntegerTy() && !Phi.getType()->isPointerTy())
    return std::nullopt;
  if (!SE.isSCEVable(Phi.getType()))
    return std::nullopt;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
  if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
      !isa<SCEVConstant>(AR->getStepRecurrence(SE)) ||
      cast<SCEVConstant>(AR->getStepRecurrence(SE))->getValue()->isZero())
    return std::nullopt;
  const SCEV *Last = AR->evaluateAtIteration(
      SE.getTruncateOrZeroExtend(Trips, SE.getEffectiveSCEVType(AR->getType())),
      SE);
  if (!Exp.isSafeToExpandAt(Last, L.getLoopPreheader()->getTerminator()))
    return std::nullopt;
  return FoundIV{&Phi, AR, Last};
}

SmallVector<FoundIV, 2> countableRecurrences(Loop &L, ScalarEvolution &SE,
                                             const SCEV *Trips,
                                             SCEVExpander &Exp) {
  SmallVector<FoundIV, 2> Found;
  for (PHINode &Phi : L.getHeader()->phis())
    if (std::optional<FoundIV> IV = countable(Phi, L, SE, Trips, Exp))
      Found.push_back(*IV);
  // The counter must not come back to its start within the loop: no self
  // wrap, or a step of one, which takes 2^bits iterations to wrap. An
  // integer counter compares cheaper than a pointer one.
  auto IsCounter = [&](const FoundIV &IV) {
    const APInt &Step =
        cast<SCEVConstant>(IV.AR->getStepRecurrence(SE))->getAPInt();
    return IV.Phi->getType()->isIntegerTy() &&
           (IV.AR->hasNoSelfWrap() || Step.isOne() || Step.isAllOnes());
  };
  auto Counter = find_if(Found, IsCounter);
  if (Counter == Found.end())
    Counter = find_if(Found,
                      [](const FoundIV &IV) { return IV.AR->hasNoSelfWrap(); });
  if (Counter == Found.end())
    return {};
  std::rotate(Found.begin(), Counter, Counter + 1);
  return Found;
}

/// \p IV of counted loop \p CL, its last value expanded in the preheader.
Recurrence expandRecurrence(const FoundIV &IV, const CountedLoop &CL,
                            ScalarEvolution &SE, SCEVExpander &Exp) {
  Recurrence R;
  R.Phi = IV.Phi;
  R.Start = IV.Phi->getIncomingValueForBlock(CL.Preheader);
  R.Step = cast<SCEVConstant>(IV.AR->getStepRecurrence(SE))->getValue();
  R.Last = Exp.expandCodeFor(IV.Last, IV.Phi->getType(),
                             CL.Preheader->getTerminator());
  R.Last->setName(IV.Phi->getName() + ".last");
  return R;
}

/// \p V minus \p Phi as an expression free of Phi, expanded before \p At;
/// nullptr if ScalarEvolution cannot give one.
Value *differenceFrom(Value *V, PHINode &Phi, Instruction *At,
                      ScalarEvolution &SE, SCEVExpander &Exp) {
  if (V == &Phi)
    return Constant::getNullValue(Phi.getType());
  const SCEV *P = SE.getSCEV(&Phi);
  const SCEV *Diff = SE.getMinusSCEV(SE.getSCEV(V), P);
  if (isa<SCEVCouldNotCompute>(Diff) ||
      SCEVExprContains(Diff, [&](const SCEV *X) { return X == P; }) ||
      !Exp.isSafeToExpandAt(Diff, At))
    return nullptr;
  return Exp.expandCodeFor(Diff, Phi.getType(), At);
}

/// Finds \p CL's stepped recurrences (CountedLoops.h) and inserts their
/// steps and final values. The step is an expression of the phi's latch
/// value minus the phi, or, where the latch value is a phi of the latch
/// joining paths that step differently (an inner loop that ran or was
/// skipped), a phi of those differences.
void addSteppedRecurrences(Loop &L, CountedLoop &CL, ScalarEvolution &SE,
                           SCEVExpander &Exp) {
  BasicBlock *Exit = L.getExitBlock();
  if (L.getExitingBlock() != CL.Latch || !Exit ||
      Exit->getSinglePredecessor() != CL.Latch)
    return;
  SmallVector<PHINode *, 4> Phis;
  for (PHINode &Phi : CL.Header->phis())
    if (Phi.getType()->isIntegerTy() && SE.isSCEVable(Phi.getType()) &&
        !isa<SCEVAddRecExpr>(SE.getSCEV(&Phi)) &&
        none_of(CL.IVs, [&](const Recurrence &R) { return R.Phi == &Phi; }))
      Phis.push_back(&Phi);
  for (PHINode *Phi : Phis) {
    Value *Next = Phi->getIncomingValueForBlock(CL.Latch);
    Value *Step = nullptr;
    auto *Join = dyn_cast<PHINode>(Next);
    if (Join && Join->getParent() == CL.Latch) {
      SmallVector<Value *, 2> Steps;
      for (unsigned K = 0; K < Join->getNumIncomingValues(); ++K)
        Steps.push_back(differenceFrom(
            Join->getIncomingValue(K), *Phi,
            Join->getIncomingBlock(K)->getTerminator(), SE, Exp));
      if (is_contained(Steps, nullptr))
        continue;
      auto *StepPhi = PHINode::Create(Phi->getType(), Steps.size(),
                                      Phi->getName() + ".step");
      StepPhi->insertBefore(CL.Latch->begin());
      for (unsigned K = 0; K < Steps.size(); ++K)
        StepPhi->addIncoming(Steps[K], Join->getIncomingBlock(K));
      Step = StepPhi;
    } else {
      Step = differenceFrom(Next, *Phi, CL.Latch->getTerminator(), SE, Exp);
    }
    if (!Step)
      continue;
    auto *Final = PHINode::Create(Phi->getType(), 1, Phi->getName() + ".final");
    Final->insertBefore(Exit->begin());
    Final->addIncoming(Next, CL.Latch);
    CL.Stepped.push_back({Phi, Step, Final});
  }
}

} // namespace

/// Values a loop computes and code after it uses (the last index of an
/// unrolled loop, where its remainder starts) become expressions of the
/// values the loop started from, so the reverse sweep recomputes them
/// instead of taping them once per execution of the loop.
static void rewriteExitValues(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return;
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI)
    Changed |= formLCSSARecursively(*L, DT, &LI, &SE);
  SCEVExpander Exp(SE, "ad.exit");
  SmallVector<WeakTrackingVH, 16> Dead;
  for (Loop *L : LI.getLoopsInPreorder())
    Changed |= rewriteLoopExitValues(L, &LI, &TLI, &SE, &TTI, Exp, &DT,
                                     AlwaysRepl, Dead) > 0;
  Exp.clear();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  // The LCSSA phis left over only add values to differentiate.
  for (BasicBlock &BB : F)
    if (BB.getSinglePredecessor())
      Changed |= FoldSingleEntryPHINodes(&BB);
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
}

CountedLoopMap materializeCountedLoops(Function &F,
                                       FunctionAnalysisManager &FAM) {
  rewriteExitValues(F, FAM);
  CountedLoopMap Result;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  SCEVExpander Exp(SE, "ad.last");
  // Literal expansion reuses the loops' own phis for outer induction
  // variables instead of adding a canonical counter to them.
  Exp.disableCanonicalMode();
  // Candidates first: expanding changes the function, not its loops.
  struct Candidate {
    Loop *L;
    const SCEV *Trips;
    SmallVector<FoundIV, 2> IVs;
  };
  SmallVector<Candidate, 8> Candidates;
  for (Loop *L : LI.getLoopsInPreorder()) {
    // One way in from outside, one back edge, one way out: the reverse loop
    // is entered only where the forward one was left, with the counter at
    // its last value.
    if (!L->getLoopPreheader() || !L->getLoopLatch() || !L->getExitingBlock() ||
        pred_size(L->getHeader()) != 2)
      continue;
    const SCEV *Trips = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Trips))
      continue;
    auto IVs = countableRecurrences(*L, SE, Trips, Exp);
    if (!IVs.empty())
      Candidates.push_back({L, Trips, std::move(IVs)});
  }
  for (Candidate &C : Candidates) {
    CountedLoop CL;
    CL.Header = C.L->getHeader();
    CL.Preheader = C.L->getLoopPreheader();
    CL.Latch = C.L->getLoopLatch();
    for (const FoundIV &IV : C.IVs)
      CL.IVs.push_back(expandRecurrence(IV, CL, SE, Exp));
    Result[CL.Header] = std::move(CL);
  }
  for (Candidate &C : Candidates)
    addSteppedRecurrences(*C.L, Result[C.L->getHeader()], SE, Exp);
  // Expanding an inner loop's last value may add a phi to an outer loop (a
  // triangular nest's row end, {d-2,+,-1}): an induction variable of that
  // loop too, counted down like the others instead of taping what it feeds.
  for (bool Added = true; Added;) {
    Added = false;
    for (Candidate &C : Candidates) {
      CountedLoop &CL = Result[C.L->getHeader()];
      SmallVector<PHINode *, 4> New;
      for (PHINode &Phi : CL.Header->phis())
        if (none_of(CL.IVs, [&](const Recurrence &R) { return R.Phi == &Phi; }))
          New.push_back(&Phi);
      for (PHINode *Phi : New)
        if (std::optional<FoundIV> IV =
                countable(*Phi, *C.L, SE, C.Trips, Exp)) {
          CL.IVs.push_back(expandRecurrence(*IV, CL, SE, Exp));
          Added = true;
        }
    }
  }
  Exp.clear();
  if (!Candidates.empty())
    FAM.invalidate(F, PreservedAnalyses::none());
  return Result;
}

} // namespace ad
