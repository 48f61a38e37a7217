//===- DeferredFrees.cpp - Frees a gradient moves to its reverse sweep ----===//
#include "primal/DeferredFrees.h"
#include "analysis/RegionFootprint.h"
#include "core/ParallelRegionCalls.h"
#include "core/PrimalMarks.h"
#include "rules/CallRows.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace ad {

/// The uses of \p Alloc, through address arithmetic: only accesses through
/// it (a parallel region's too), comparisons, memory intrinsics and
/// one-argument frees (collected in \p Frees). Anything else might free it
/// or let it escape.
static bool onlyAccessedOrFreed(const Value *Alloc,
                                SmallVectorImpl<CallBase *> &Frees) {
  SmallVector<const Value *, 8> Work{Alloc};
  SmallPtrSet<const Value *, 8> Seen{Alloc};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const Use &U : P->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return false;
      if (isa<LoadInst>(I) || isa<CmpInst>(I))
        continue;
      if (auto *St = dyn_cast<StoreInst>(I)) {
        if (U.getOperandNo() != St->getPointerOperandIndex())
          return false; // The pointer itself stored: it escapes.
        continue;
      }
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      if (isa<MemIntrinsic>(I) || isa<DbgInfoIntrinsic>(I) ||
          (isa<IntrinsicInst>(I) &&
           cast<IntrinsicInst>(I)->isLifetimeStartOrEnd()))
        continue;
      auto *Call = dyn_cast<CallBase>(I);
      // A parallel region that only accesses memory through it.
      if (Call && isParallelRegionCall(*Call) && Call->getCalledFunction() &&
          U.getOperandNo() < Call->getCalledFunction()->arg_size() &&
          staysInRegion(*Call->getCalledFunction()->getArg(U.getOperandNo())))
        continue;
      if (Call && P == Alloc && Call->arg_size() == 1 &&
          rowOf(*Call).Kind == CalleeKind::Free && Call->getCalledFunction()) {
        Frees.push_back(Call);
        continue;
      }
      return false;
    }
  }
  return true;
}

/// Every path from \p Alloc to \p Ret runs exactly one of \p Frees.
static bool freedOnceOnEveryPath(CallBase &Alloc, ArrayRef<CallBase *> Frees,
                                 Instruction *Ret, DominatorTree &DT,
                                 LoopInfo &LI) {
  SmallPtrSet<BasicBlock *, 4> FreeBlocks;
  for (CallBase *F : Frees) {
    if (!FreeBlocks.insert(F->getParent()).second)
      return false; // Two in one block.
    if (F->getParent() == Alloc.getParent() && F->comesBefore(&Alloc))
      return false;
  }
  for (CallBase *A : Frees)
    for (CallBase *B : Frees)
      if (A != B && isPotentiallyReachable(A, B, nullptr, &DT, &LI))
        return false;
  // A free in the allocation's block, or in the return's (before the
  // return), runs on every path; otherwise no path may get round them.
  if (FreeBlocks.contains(Alloc.getParent()) ||
      FreeBlocks.contains(Ret->getParent()))
    return true;
  SmallPtrSet<BasicBlock *, 4> Exclusion(FreeBlocks.begin(), FreeBlocks.end());
  return !isPotentiallyReachable(&Alloc, Ret, &Exclusion, &DT, &LI);
}

void markDeferredFrees(Function &F, FunctionAnalysisManager &FAM) {
  Instruction *Ret = nullptr;
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()))
      Ret = Ret ? nullptr : BB.getTerminator();
  if (!Ret)
    return;
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  for (Instruction &I : instructions(F)) {
    auto *Alloc = dyn_cast<CallBase>(&I);
    if (!Alloc || LI.getLoopFor(I.getParent()))
      continue;
    CalleeKind K = rowOf(*Alloc).Kind;
    if (K != CalleeKind::Malloc && K != CalleeKind::Calloc)
      continue;
    SmallVector<CallBase *, 2> Frees;
    if (!onlyAccessedOrFreed(Alloc, Frees) || Frees.empty())
      continue;
    Function *FreeFn = Frees.front()->getCalledFunction();
    if (any_of(Frees, [&](CallBase *C) {
          return C->getCalledFunction() != FreeFn ||
                 LI.getLoopFor(C->getParent());
        }))
      continue;
    if (!freedOnceOnEveryPath(*Alloc, Frees, Ret, DT, LI))
      continue;
    for (CallBase *Free : Frees)
      markDeferredFree(*Free, *Alloc, *FreeFn);
  }
}

} // namespace ad
