//===- IndependentIterations.cpp - Loop nests whose iterations share nothing =//
#include "analysis/IndependentIterations.h"
#include "rules/KnownFunctions.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ad {

/// Instructions that are more than integer control: they touch memory, have
/// other effects, or compute in floating point. (Markers of lifetimes and
/// assumptions say nothing a derivative needs.)
static bool doesWork(const Instruction &I) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
      return false;
  auto IsFP = [](const Value *V) {
    return V->getType()->getScalarType()->isFloatingPointTy();
  };
  return IsFP(&I) || any_of(I.operands(), IsFP) || I.mayHaveSideEffects() ||
         I.mayReadOrWriteMemory();
}

static std::string lineOf(const Instruction &I) {
  if (const DebugLoc &Loc = I.getDebugLoc())
    return " at line " + std::to_string(Loc.getLine());
  return "";
}

IndependentNest findIndependentNest(Function &F, FunctionAnalysisManager &FAM,
                                    std::string &WhyNot) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  // The innermost loop around all the work...
  Loop *Around = nullptr;
  bool First = true;
  for (Instruction &I : instructions(F)) {
    if (!doesWork(I))
      continue;
    Loop *L = LI.getLoopFor(I.getParent());
    if (First)
      Around = L, First = false;
    while (Around && !Around->contains(L))
      Around = Around->getParentLoop();
    if (!Around) {
      return {};
    }
  }
  // ... whose iterations run loops of their own: an elementwise loop gains
  // nothing (its iterations tape no more than a few values).
  while (Around && Around->isInnermost())
    Around = Around->getParentLoop();
  if (!Around)
    return {};
  IndependentNest Nest;
  for (Loop *L = Around; L; L = L->getParentLoop())
    Nest.Loops.insert(Nest.Loops.begin(), L);

  // Only loads and stores: a call that touches memory is not placed by the
  // dependence analysis.
  SmallVector<Instruction *, 16> Accesses;
  for (BasicBlock *BB : Around->blocks())
    for (Instruction &I : *BB) {
      if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
        bool Simple = isa<LoadInst>(I) ? cast<LoadInst>(I).isSimple()
                                       : cast<StoreInst>(I).isSimple();
        if (!Simple) {
          WhyNot = "a volatile or atomic access" + lineOf(I);
          return {};
        }
        Accesses.push_back(&I);
      } else if (I.mayReadOrWriteMemory() && doesWork(I) &&
                 !(isa<CallInst>(I) &&
                   classifyCallee(cast<CallInst>(I)).Rule)) {
        // (A math function's row ignores errno: it touches no memory.)
        WhyNot = "a call that touches memory" + lineOf(I);
        return {};
      }
    }

  DependenceInfo &DI = FAM.getResult<DependenceAnalysis>(F);
  for (unsigned A = 0; A < Accesses.size(); ++A)
    for (unsigned B = A; B < Accesses.size(); ++B) {
      Instruction *Src = Accesses[A], *Dst = Accesses[B];
      if (!Src->mayWriteToMemory() && !Dst->mayWriteToMemory())
        continue;
      std::unique_ptr<Dependence> D = DI.depends(Src, Dst);
      if (!D)
        continue;
      bool Within = !D->isConfused() && D->getLevels() >= Nest.Loops.size();
      for (unsigned Level = 1; Within && Level <= Nest.Loops.size(); ++Level)
        Within = D->getDirection(Level) == Dependence::DVEntry::EQ;
      if (Within)
        continue;
      WhyNot = "an access" + lineOf(*Dst) +
               " may touch memory another iteration's access" + lineOf(*Src) +
               " writes or reads";
      if (!Dst->mayWriteToMemory())
        WhyNot = "an access" + lineOf(*Src) +
                 " may write memory another iteration's access" + lineOf(*Dst) +
                 " reads";
      return {};
    }
  return Nest;
}

} // namespace ad
