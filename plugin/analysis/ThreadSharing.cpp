//===- ThreadSharing.cpp - Which memory other GPU threads may also update
//---===//
#include "analysis/ThreadSharing.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace ad {

bool isParallelDeviceCode(const Module &M) {
  const Triple &T = M.getTargetTriple();
  return T.isNVPTX() || T.isAMDGPU();
}

bool shadowMayBeShared(const Module &M, const Value *Ptr) {
  if (!isParallelDeviceCode(M))
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *Obj : Objects) {
    if (isa<AllocaInst>(Obj))
      continue; // the thread's own stack: its shadow is the thread's too
    if (const auto *Call = dyn_cast<CallBase>(Obj);
        Call && Call->getCalledFunction() &&
        Call->getCalledFunction()->getName() == "malloc")
      continue; // a block this thread allocated; its shadow is its own
    return true;
  }
  return false;
}

bool isBlockShared(const GlobalVariable &GV) {
  // NVPTX's and AMDGPU's shared (local data share) address space.
  return isParallelDeviceCode(*GV.getParent()) && GV.getAddressSpace() == 3;
}

static bool isBlockBarrier(const Function &F) {
  switch (F.getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_sync_aligned_all:
  case Intrinsic::nvvm_barrier_cta_sync_all:
  case Intrinsic::nvvm_barrier_cta_sync_aligned_count:
  case Intrinsic::nvvm_barrier_cta_sync_count:
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
  case Intrinsic::amdgcn_s_barrier:
    return true;
  default:
    return false;
  }
}

bool callsBlockBarrier(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen{&F};
  SmallVector<const Function *, 8> Work{&F};
  while (!Work.empty()) {
    const Function *G = Work.pop_back_val();
    for (const Instruction &I : instructions(*G))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction()) {
          if (isBlockBarrier(*Callee))
            return true;
          if (!Callee->isDeclaration() && Seen.insert(Callee).second)
            Work.push_back(Callee);
        }
  }
  return false;
}

} // namespace ad
