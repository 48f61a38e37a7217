//===- ThreadSharing.cpp - Which memory other GPU threads may also update
//---===//
#include "analysis/ThreadSharing.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace ad {

/// NVPTX's special registers (threadIdx.x, ...).
static bool isRegister(const Value *V, Intrinsic::ID ID) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && F->getIntrinsicID() == ID;
}

/// blockIdx.x * blockDim.x + threadIdx.x, in either order of either
/// operation, through integer extensions: distinct in every thread of a
/// one-dimensional launch.
static bool isGlobalThreadIndex(const Value *V) {
  while (isa<SExtInst>(V) || isa<ZExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  const auto *Add = dyn_cast<BinaryOperator>(V);
  if (!Add || Add->getOpcode() != Instruction::Add)
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    const Value *Tid = Add->getOperand(I);
    const auto *Mul = dyn_cast<BinaryOperator>(Add->getOperand(1 - I));
    if (!isRegister(Tid, Intrinsic::nvvm_read_ptx_sreg_tid_x) || !Mul ||
        Mul->getOpcode() != Instruction::Mul)
      continue;
    for (unsigned J = 0; J < 2; ++J)
      if (isRegister(Mul->getOperand(J),
                     Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
          isRegister(Mul->getOperand(1 - J),
                     Intrinsic::nvvm_read_ptx_sreg_ntid_x))
        return true;
  }
  return false;
}

/// The accesses of \p Arg if every use of it is a one-index GEP at the
/// global thread index whose uses are loads, stores and atomic updates of
/// at most one element through it; nothing otherwise (another index, an
/// escape, a wider access could reach another thread's element).
static bool collectThreadIndexedAccesses(const Argument &Arg,
                                         SmallPtrSetImpl<const Value *> &Out) {
  const DataLayout &DL = Arg.getParent()->getDataLayout();
  for (const User *U : Arg.users()) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (!GEP || GEP->getPointerOperand() != &Arg || GEP->getNumIndices() != 1 ||
        !isGlobalThreadIndex(GEP->getOperand(1)))
      return false;
    uint64_t Element = DL.getTypeAllocSize(GEP->getSourceElementType());
    for (const User *A : GEP->users()) {
      Type *T = nullptr;
      if (const auto *L = dyn_cast<LoadInst>(A))
        T = L->getType();
      else if (const auto *S = dyn_cast<StoreInst>(A);
               S && S->getPointerOperand() == GEP)
        T = S->getValueOperand()->getType();
      else if (const auto *R = dyn_cast<AtomicRMWInst>(A);
               R && R->getPointerOperand() == GEP)
        T = R->getValOperand()->getType();
      if (!T || DL.getTypeStoreSize(T) > Element)
        return false;
    }
    Out.insert(GEP);
  }
  return true;
}

/// The loads through \p Base, directly or through address arithmetic.
static void collectLoadsThrough(const Value *Base,
                                SmallPtrSetImpl<const Value *> &Out) {
  for (const User *U : Base->users())
    if (isa<GetElementPtrInst>(U))
      collectLoadsThrough(U, Out);
    else if (const auto *L = dyn_cast<LoadInst>(U))
      Out.insert(L->getPointerOperand());
}

ThreadOwnedArguments::ThreadOwnedArguments(
    const Function &F, uint64_t Vouched, bool InTeam, uint64_t Private,
    uint64_t IterationOwned, const SmallPtrSetImpl<const Value *> *Unplaced)
    : InTeam(InTeam) {
  for (const Argument &Arg : F.args())
    if (Arg.getArgNo() < 64 && (IterationOwned >> Arg.getArgNo() & 1))
      collectLoadsThrough(&Arg, OwnedAccesses);
  if (Unplaced)
    for (const Value *Ptr : *Unplaced)
      OwnedAccesses.erase(Ptr);
  for (const Argument &Arg : F.args())
    if (Arg.getArgNo() < 64 && (Private >> Arg.getArgNo() & 1)) {
      // The pointer itself, or loads of it from the variable holding it.
      collectLoadsThrough(&Arg, OwnedAccesses);
      for (const User *U : Arg.users())
        if (isa<LoadInst>(U) && U->getType()->isPointerTy())
          collectLoadsThrough(U, OwnedAccesses);
    }
  for (const Argument &Arg : F.args()) {
    if (Arg.getArgNo() >= 64 || !(Vouched >> Arg.getArgNo() & 1))
      continue;
    SmallPtrSet<const Value *, 8> Accesses;
    if (collectThreadIndexedAccesses(Arg, Accesses))
      OwnedAccesses.insert(Accesses.begin(), Accesses.end());
  }
}

bool ThreadOwnedArguments::owns(const Value *Ptr) const {
  return OwnedAccesses.count(Ptr);
}

/// One value in every thread: a constant, a kernel's parameter, or computed
/// from those by address arithmetic.
static bool isLaunchUniform(const Value *V, unsigned Depth = 0) {
  if (isa<Constant>(V))
    return true;
  if (const auto *Arg = dyn_cast<Argument>(V))
    return Arg->getParent()->getCallingConv() == CallingConv::PTX_Kernel;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 ||
      !(isa<GetElementPtrInst>(I) || isa<CastInst>(I) ||
        isa<BinaryOperator>(I)))
    return false;
  return all_of(I->operands(), [&](const Use &U) {
    return isLaunchUniform(U.get(), Depth + 1);
  });
}

bool isLaunchUniformRestrictPointer(const Value *V) {
  const auto *Base = dyn_cast<Argument>(getUnderlyingObject(V));
  return Base && Base->hasNoAliasAttr() && isLaunchUniform(V);
}

bool shadowMayBeShared(const Module &M, const Value *Ptr,
                       const ThreadOwnedArguments &Owned) {
  if (!(isParallelDeviceCode(M) || Owned.inTeam()) || Owned.owns(Ptr))
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

bool callsBlockBarrier(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen{&F};
  SmallVector<const Function *, 8> Work{&F};
  while (!Work.empty()) {
    const Function *G = Work.pop_back_val();
    for (const Instruction &I : instructions(*G))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction()) {
          // The row that mirrors __syncthreads in the reverse sweep.
          if (classifyCallee(*Call).Kind == CalleeKind::Barrier)
            return true;
          if (!Callee->isDeclaration() && Seen.insert(Callee).second)
            Work.push_back(Callee);
        }
  }
  return false;
}

} // namespace ad
