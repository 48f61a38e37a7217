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
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace ad {

GlobalVariable *RuntimeFunctions::teamTurnOfThread() {
  if (GlobalVariable *G = M.getNamedGlobal("__ad_omp_team_turn"))
    return G;
  Type *Ptr = PointerType::getUnqual(M.getContext());
  auto *G = new GlobalVariable(M, Ptr, false, GlobalValue::LinkOnceODRLinkage,
                               ConstantPointerNull::get(cast<PointerType>(Ptr)),
                               "__ad_omp_team_turn", nullptr,
                               GlobalValue::GeneralDynamicTLSModel);
  G->setVisibility(GlobalValue::HiddenVisibility);
  return G;
}

/// The counter a section's ticket is taken from: the team's, while this
/// thread runs a differentiated region (one counter for all of the team's
/// sections: any order consistent with each thread's is a valid reverse
/// order), else the lock's own.
static Value *turnCounter(IRBuilderBase &B, GlobalVariable *OfThread,
                          Value *OfLock) {
  Type *Ptr = OfLock->getType();
  Value *Team = B.CreateLoad(Ptr, B.CreateThreadLocalAddress(OfThread));
  return B.CreateSelect(B.CreateIsNull(Team), OfLock, Team);
}

FunctionCallee RuntimeFunctions::ompGlobalThreadNum() {
  return M.getOrInsertFunction("__kmpc_global_thread_num",
                               Type::getInt32Ty(M.getContext()),
                               PointerType::getUnqual(M.getContext()));
}

Function *RuntimeFunctions::teamTicket() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate("__ad_omp_ticket",
                            FunctionType::get(I64, {Ptr}, false), Created);
  if (!Created)
    return F;
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateRet(B.CreateAtomicRMW(
      AtomicRMWInst::Add, turnCounter(B, teamTurnOfThread(), F->getArg(0)),
      B.getInt64(1), Align(8), AtomicOrdering::Monotonic));
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
  Value *Counter = turnCounter(B, teamTurnOfThread(), F->getArg(0));
  B.CreateBr(Wait);
  B.SetInsertPoint(Wait);
  LoadInst *Turn = B.CreateAlignedLoad(I64, Counter, Align(8));
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
  B.CreateAlignedStore(
       F->getArg(1), turnCounter(B, teamTurnOfThread(), F->getArg(0)), Align(8))
      ->setAtomic(AtomicOrdering::Release);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::teamSumPrivate(Type *Element) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  bool Created;
  Function *F =
      getOrCreate(Element->isFloatTy() ? "__ad_omp_sum_private.f32"
                                       : "__ad_omp_sum_private.f64",
                  FunctionType::get(Type::getVoidTy(C),
                                    {Ptr, Ptr, I64, I32, I64, I64}, false),
                  Created);
  if (!Created)
    return F;
  // for (u = 0; u < threads; u++) { b = *(first + u * stride);
  //   if (b) for (j = begin; j < end; j++) if (b[j] != 0) dst[j] += b[j]; }
  // (No buffer: the thread added into dst itself.)
  // One buffer at a time: the inner loop streams two arrays.
  Argument *Dst = F->getArg(0), *First = F->getArg(1), *Stride = F->getArg(2),
           *Threads = F->getArg(3), *Begin = F->getArg(4), *End = F->getArg(5);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Outer = BasicBlock::Create(C, "thread", F);
  BasicBlock *Inner = BasicBlock::Create(C, "element", F);
  BasicBlock *Next = BasicBlock::Create(C, "next", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Threads64 = B.CreateZExt(Threads, I64);
  B.CreateCondBr(B.CreateAnd(B.CreateICmpSGT(End, Begin),
                             B.CreateICmpSGT(Threads64, B.getInt64(0))),
                 Outer, Done);
  B.SetInsertPoint(Outer);
  PHINode *U = B.CreatePHI(I64, 2, "u");
  U->addIncoming(B.getInt64(0), Entry);
  Value *Buffer = B.CreateLoad(
      Ptr, B.CreateGEP(B.getInt8Ty(), First, B.CreateMul(U, Stride)));
  B.CreateCondBr(B.CreateIsNull(Buffer), Next, Inner);
  BasicBlock *Add = BasicBlock::Create(C, "add", F);
  BasicBlock *Step = BasicBlock::Create(C, "step", F);
  B.SetInsertPoint(Inner);
  PHINode *J = B.CreatePHI(I64, 2, "j");
  J->addIncoming(Begin, Outer);
  Value *Mine = B.CreateLoad(Element, B.CreateGEP(Element, Buffer, J));
  // Only where the buffer received something: the range the buffers cover
  // is a bound, which may reach past the memory the region read, and a
  // location nobody read must not be touched.
  B.CreateCondBr(B.CreateFCmpUNE(Mine, ConstantFP::get(Element, 0.0)), Add,
                 Step);
  B.SetInsertPoint(Add);
  Value *To = B.CreateGEP(Element, Dst, J);
  B.CreateStore(B.CreateFAdd(B.CreateLoad(Element, To), Mine), To);
  B.CreateBr(Step);
  B.SetInsertPoint(Step);
  Value *J1 = B.CreateAdd(J, B.getInt64(1));
  J->addIncoming(J1, Step);
  B.CreateCondBr(B.CreateICmpSLT(J1, End), Inner, Next);
  B.SetInsertPoint(Next);
  Value *U1 = B.CreateAdd(U, B.getInt64(1));
  U->addIncoming(U1, Next);
  B.CreateCondBr(B.CreateICmpSLT(U1, Threads64), Outer, Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

} // namespace ad
