//===- DeviceRuntime.cpp - Run-time support for GPU device code
//-------------===//
//
// What derivatives in GPU device code need beyond the tape: zeroing the
// shadows of block-shared (__shared__) memory, which holds garbage when a
// block starts, and the block barrier that orders it before their use.
//
//===----------------------------------------------------------------------===//
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// The thread's index within its block, in x-fastest order, and the
/// block's number of threads.
static std::pair<Value *, Value *> linearThreadInBlock(IRBuilderBase &B) {
  auto Read = [&](Intrinsic::ID ID) { return B.CreateIntrinsic(ID, {}); };
  Value *TX = Read(Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Value *TY = Read(Intrinsic::nvvm_read_ptx_sreg_tid_y);
  Value *TZ = Read(Intrinsic::nvvm_read_ptx_sreg_tid_z);
  Value *NX = Read(Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  Value *NY = Read(Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  Value *NZ = Read(Intrinsic::nvvm_read_ptx_sreg_ntid_z);
  Value *Linear =
      B.CreateAdd(TX, B.CreateMul(NX, B.CreateAdd(TY, B.CreateMul(NY, TZ))));
  Value *Count = B.CreateMul(NX, B.CreateMul(NY, NZ));
  return {Linear, Count};
}

void RuntimeFunctions::zeroBlockShared(IRBuilderBase &B, Value *Shared,
                                       uint64_t Bytes) {
  if (!M.getTargetTriple().isNVPTX()) {
    B.CreateMemSet(Shared, B.getInt8(0), Bytes, MaybeAlign());
    return;
  }
  // for (i = thread; i < words; i += threads) shared[i] = 0, in words of 4
  // bytes where the size allows (shared variables are at least 4-aligned
  // when they are that large), of 1 otherwise.
  LLVMContext &C = M.getContext();
  unsigned Word = Bytes % 4 == 0 ? 4 : 1;
  Type *WordTy = Type::getIntNTy(C, Word * 8);
  Value *Words = B.getInt32(Bytes / Word);
  auto [First, Step] = linearThreadInBlock(B);
  BasicBlock *Before = B.GetInsertBlock();
  Function *F = Before->getParent();
  BasicBlock *After =
      Before->splitBasicBlock(B.GetInsertPoint(), "shared.zeroed");
  Before->getTerminator()->eraseFromParent();
  BasicBlock *Loop = BasicBlock::Create(C, "shared.zero", F, After);
  B.SetInsertPoint(Before);
  B.CreateCondBr(B.CreateICmpULT(First, Words), Loop, After);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt32Ty(), 2);
  I->addIncoming(First, Before);
  B.CreateAlignedStore(ConstantInt::get(WordTy, 0),
                       B.CreateGEP(WordTy, Shared, I), Align(Word));
  Value *Next = B.CreateAdd(I, Step);
  I->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(Next, Words), Loop, After);
  B.SetInsertPoint(After, After->begin());
}

void RuntimeFunctions::blockBarrier(IRBuilderBase &B) {
  if (M.getTargetTriple().isNVPTX())
    B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all,
                      {B.getInt32(0)});
}

} // namespace ad
