//===- TeamRuntime.cpp - Turns of OpenMP critical sections, emitted as IR -===//
//
// A critical section's reverse must run in the reverse order of the
// sections' forward runs: the adjoint of `m = m * p` under the lock that
// thread A took first and thread B second is B's reverse first (it scales
// the adjoint of m by p_B) and A's after. A turn counter per lock orders
// them: the forward sweep takes a ticket inside the lock, the reverse
// sweep waits until the counter is one past its ticket and then sets it
// to its ticket, which lets the section before it go. Every thread's
// tickets descend along its reverse sweep, so the waits never deadlock,
// and the counter ends where it started for the next gradient.
//
//===----------------------------------------------------------------------===//
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace ad {

Function *RuntimeFunctions::teamTicket() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate("__ad_omp_ticket",
                            FunctionType::get(I64, {Ptr}, false), Created);
  if (!Created)
    return F;
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateRet(B.CreateAtomicRMW(AtomicRMWInst::Add, F->getArg(0), B.getInt64(1),
                                Align(8), AtomicOrdering::Monotonic));
  return F;
}

Function *RuntimeFunctions::teamTurnEnd() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_omp_turn_end",
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false), Created);
  if (Created)
    ReturnInst::Create(C, BasicBlock::Create(C, "entry", F));
  return F;
}

Function *RuntimeFunctions::teamWaitTurn() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_omp_wait_turn",
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Wait = BasicBlock::Create(C, "wait", F);
  BasicBlock *Yield = BasicBlock::Create(C, "yield", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Want = B.CreateAdd(F->getArg(1), B.getInt64(1));
  B.CreateBr(Wait);
  B.SetInsertPoint(Wait);
  LoadInst *Turn = B.CreateAlignedLoad(I64, F->getArg(0), Align(8));
  Turn->setAtomic(AtomicOrdering::Acquire);
  B.CreateCondBr(B.CreateICmpEQ(Turn, Want), Done, Yield);
  // Threads may outnumber cores: give the one whose turn it is the core.
  B.SetInsertPoint(Yield);
  B.CreateCall(M.getOrInsertFunction("sched_yield", B.getInt32Ty()));
  B.CreateBr(Wait);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::teamPassTurn() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_omp_pass_turn",
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateAlignedStore(F->getArg(1), F->getArg(0), Align(8))
      ->setAtomic(AtomicOrdering::Release);
  B.CreateRetVoid();
  return F;
}

} // namespace ad
