//===- RuntimeFunctions.cpp - Run-time support emitted into the module ------===//
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace ad {

StructType *RuntimeFunctions::tapeType() {
  LLVMContext &C = M.getContext();
  if (StructType *T = StructType::getTypeByName(C, "ad.tape"))
    return T;
  Type *I64 = Type::getInt64Ty(C);
  return StructType::create(C, {PointerType::getUnqual(C), I64, I64},
                            "ad.tape");
}

Function *RuntimeFunctions::getOrCreate(StringRef Name, FunctionType *Ty,
                                        bool &Created) {
  Created = false;
  if (Function *F = M.getFunction(Name))
    return F;
  Created = true;
  Function *F =
      Function::Create(Ty, GlobalValue::LinkOnceODRLinkage, Name, &M);
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

FunctionCallee RuntimeFunctions::calloc() {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  return M.getOrInsertFunction("calloc", PointerType::getUnqual(C), I64, I64);
}

FunctionCallee RuntimeFunctions::free() {
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction("free", Type::getVoidTy(C),
                               PointerType::getUnqual(C));
}

FunctionCallee RuntimeFunctions::mallocUsableSize() {
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction("malloc_usable_size", Type::getInt64Ty(C),
                               PointerType::getUnqual(C));
}

Value *RuntimeFunctions::reallocBuffer(IRBuilderBase &B, Value *Tape,
                                       Value *Capacity) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  FunctionCallee Realloc = M.getOrInsertFunction("realloc", Ptr, Ptr, I64);
  Value *Data = B.CreateLoad(Ptr, B.CreateStructGEP(tapeType(), Tape, 0));
  return B.CreateCall(Realloc, {Data, Capacity});
}

void RuntimeFunctions::setBuffer(IRBuilderBase &B, Value *Tape, Value *Data,
                                 Value *Capacity) {
  B.CreateStore(Data, B.CreateStructGEP(tapeType(), Tape, 0));
  B.CreateStore(Capacity, B.CreateStructGEP(tapeType(), Tape, 2));
}

Function *RuntimeFunctions::tapeGrow() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_tape_grow", FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false),
      Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Cold);
  // capacity = max(need, 2 * capacity, 4096); data = realloc(data, capacity)
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Tape = F->getArg(0), *Need = F->getArg(1);
  StructType *TT = tapeType();
  Value *CapPtr = B.CreateStructGEP(TT, Tape, 2);
  Value *Cap = B.CreateLoad(I64, CapPtr);
  Value *NewCap = B.CreateBinaryIntrinsic(Intrinsic::umax, Need,
                                          B.CreateShl(Cap, 1));
  NewCap = B.CreateBinaryIntrinsic(Intrinsic::umax, NewCap,
                                   ConstantInt::get(I64, 4096));
  Value *Data = reallocBuffer(B, Tape, NewCap);
  // Out of memory: stop rather than write through null.
  BasicBlock *Fail = BasicBlock::Create(C, "oom", F);
  BasicBlock *Ok = BasicBlock::Create(C, "ok", F);
  B.CreateCondBr(B.CreateIsNull(Data), Fail, Ok);
  B.SetInsertPoint(Fail);
  B.CreateCall(M.getOrInsertFunction("abort", Type::getVoidTy(C)));
  B.CreateUnreachable();
  B.SetInsertPoint(Ok);
  setBuffer(B, Tape, Data, NewCap);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::tapePush() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate("__ad_tape_push",
                            FunctionType::get(Ptr, {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::AlwaysInline);
  StructType *TT = tapeType();
  Value *Tape = F->getArg(0), *Bytes = F->getArg(1);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Grow = BasicBlock::Create(C, "grow", F);
  BasicBlock *Write = BasicBlock::Create(C, "write", F);
  IRBuilder<> B(Entry);
  Value *SizePtr = B.CreateStructGEP(TT, Tape, 1);
  Value *Size = B.CreateLoad(I64, SizePtr);
  Value *NewSize = B.CreateAdd(Size, Bytes);
  Value *Cap = B.CreateLoad(I64, B.CreateStructGEP(TT, Tape, 2));
  B.CreateCondBr(B.CreateICmpUGT(NewSize, Cap), Grow, Write);
  B.SetInsertPoint(Grow);
  B.CreateCall(tapeGrow(), {Tape, NewSize});
  B.CreateBr(Write);
  B.SetInsertPoint(Write);
  Value *Data = B.CreateLoad(Ptr, B.CreateStructGEP(TT, Tape, 0));
  B.CreateStore(NewSize, SizePtr);
  B.CreateRet(B.CreateGEP(B.getInt8Ty(), Data, Size));
  return F;
}

Function *RuntimeFunctions::tapePop() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate("__ad_tape_pop",
                            FunctionType::get(Ptr, {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::AlwaysInline);
  StructType *TT = tapeType();
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Tape = F->getArg(0), *Bytes = F->getArg(1);
  Value *SizePtr = B.CreateStructGEP(TT, Tape, 1);
  Value *NewSize = B.CreateSub(B.CreateLoad(I64, SizePtr), Bytes);
  B.CreateStore(NewSize, SizePtr);
  Value *Data = B.CreateLoad(Ptr, B.CreateStructGEP(TT, Tape, 0));
  B.CreateRet(B.CreateGEP(B.getInt8Ty(), Data, NewSize));
  return F;
}

Function *RuntimeFunctions::tapeReserve() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_tape_reserve",
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::NoInline);
  // if (size + bytes > capacity && no overflow)
  //   if (data' = realloc(data, size + bytes)) data = data', capacity = ...
  // A failed reallocation is left to the pushes, which grow or abort.
  StructType *TT = tapeType();
  Value *Tape = F->getArg(0), *Bytes = F->getArg(1);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Grow = BasicBlock::Create(C, "grow", F);
  BasicBlock *Got = BasicBlock::Create(C, "got", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Size = B.CreateLoad(I64, B.CreateStructGEP(TT, Tape, 1));
  Value *CapPtr = B.CreateStructGEP(TT, Tape, 2);
  Value *Need = B.CreateAdd(Size, Bytes);
  Value *Short = B.CreateICmpUGT(Need, B.CreateLoad(I64, CapPtr));
  Value *Fits = B.CreateICmpUGE(Need, Size);
  B.CreateCondBr(B.CreateAnd(Short, Fits), Grow, Done);
  B.SetInsertPoint(Grow);
  Value *Data = reallocBuffer(B, Tape, Need);
  B.CreateCondBr(B.CreateIsNull(Data), Done, Got);
  B.SetInsertPoint(Got);
  setBuffer(B, Tape, Data, Need);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::tapeFree() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_tape_free", FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
      Created);
  if (!Created)
    return F;
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *DataPtr = B.CreateStructGEP(tapeType(), F->getArg(0), 0);
  B.CreateCall(free(), {B.CreateLoad(Ptr, DataPtr)});
  B.CreateStore(Constant::getNullValue(Ptr), DataPtr);
  B.CreateRetVoid();
  return F;
}

void RuntimeFunctions::emitAdjointLoop(Function *F, Type *FPTy, bool Ascending,
                                       BasicBlock *Entry, BasicBlock *Exit) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  Value *Src = F->getArg(0), *Dst = F->getArg(1), *Count = F->getArg(2),
        *Stride = F->getArg(3);
  BasicBlock *Body = BasicBlock::Create(C, Ascending ? "up" : "down", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpEQ(Count, ConstantInt::get(I64, 0)), Exit, Body);
  B.SetInsertPoint(Body);
  PHINode *K = B.CreatePHI(I64, 2);
  K->addIncoming(ConstantInt::get(I64, 0), Entry);
  // Element index: k ascending, or count-1-k descending.
  Value *Idx = Ascending
                   ? static_cast<Value *>(K)
                   : B.CreateSub(B.CreateSub(Count, ConstantInt::get(I64, 1)), K);
  Value *Off = B.CreateMul(Idx, Stride);
  Value *DP = B.CreateGEP(B.getInt8Ty(), Dst, Off);
  Value *SP = B.CreateGEP(B.getInt8Ty(), Src, Off);
  Value *D = B.CreateLoad(FPTy, DP);
  B.CreateStore(ConstantFP::get(FPTy, 0.0), DP);
  B.CreateStore(B.CreateFAdd(B.CreateLoad(FPTy, SP), D), SP);
  Value *Next = B.CreateAdd(K, ConstantInt::get(I64, 1));
  K->addIncoming(Next, Body);
  B.CreateCondBr(B.CreateICmpEQ(Next, Count), Exit, Body);
}

Function *RuntimeFunctions::memcpyAdjoint(Type *FPTy) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  std::string Name = "__ad_memcpy_adjoint.";
  raw_string_ostream(Name) << *FPTy;
  bool Created;
  Function *F = getOrCreate(
      Name,
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64, I64}, false),
      Created);
  if (!Created)
    return F;
  // Source below destination: walk up; otherwise walk down, so that an
  // overlapping element is read before it is written.
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Up = BasicBlock::Create(C, "check.up", F);
  BasicBlock *Down = BasicBlock::Create(C, "check.down", F);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpULT(F->getArg(0), F->getArg(1)), Up, Down);
  emitAdjointLoop(F, FPTy, /*Ascending=*/true, Up, Exit);
  emitAdjointLoop(F, FPTy, /*Ascending=*/false, Down, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return F;
}

} // namespace ad
