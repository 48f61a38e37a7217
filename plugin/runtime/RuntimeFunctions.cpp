//===- RuntimeFunctions.cpp - Run-time support emitted into the module
//------===//
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace ad {

Function *RuntimeFunctions::getOrCreate(StringRef Name, FunctionType *Ty,
                                        bool &Created) {
  Created = false;
  if (Function *F = M.getFunction(Name))
    return F;
  Created = true;
  Function *F = Function::Create(Ty, GlobalValue::LinkOnceODRLinkage, Name, &M);
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

FunctionCallee RuntimeFunctions::libraryFunction(StringRef Name,
                                                 FunctionType *Ty) {
  if (Function *Own = M.getFunction(Name); Own && Own->hasLocalLinkage())
    Own->setName(Name + ".local"); // Local symbols may take any name.
  return M.getOrInsertFunction(Name, Ty);
}

Function *RuntimeFunctions::stopWithMessage() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_stop", FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false),
      Created);
  if (!Created)
    return F;
  F->setDoesNotReturn();
  F->addFnAttr(Attribute::Cold);
  F->addFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  if (!onGPU()) {
    // write(2, ...): no stdio state, and it works while the heap is broken.
    Type *SizeT = M.getDataLayout().getIntPtrType(C);
    FunctionCallee Write = libraryFunction(
        "write", FunctionType::get(SizeT, {B.getInt32Ty(), Ptr, SizeT}, false));
    B.CreateCall(Write, {B.getInt32(2), F->getArg(0),
                         B.CreateZExtOrTrunc(F->getArg(1), SizeT)});
  }
  emitAbort(B);
  return F;
}

void RuntimeFunctions::emitStop(IRBuilderBase &B, StringRef Message) {
  B.CreateCall(stopWithMessage(),
               {B.CreateGlobalString(Message, "ad.stop.message"),
                B.getInt64(Message.size())});
}

void RuntimeFunctions::grantFloatingPointPermissions(Function &F) {
  // The inliner keeps a function-wide floating-point permission (no NaNs,
  // no signed zeros, ...) only where every function inlined into it grants
  // it too: a tape push inlined into a derivative of -ffast-math code would
  // take away the permissions the loop vectorizer needs for a maximum
  // reduction. Only functions without floating-point arithmetic may grant
  // them: under "no NaNs" the memcpy adjoint's, first_equal's or the team
  // sums' comparisons could be lowered as if a NaN compared equal.
  for (StringRef Permission :
       {"no-infs-fp-math", "no-nans-fp-math", "no-signed-zeros-fp-math",
        "unsafe-fp-math", "approx-func-fp-math", "less-precise-fpmad"})
    F.addFnAttr(Permission, "true");
}

Function *RuntimeFunctions::shadowAllocAligned() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  bool Created;
  Function *F = getOrCreate("__ad_shadow_alloc_aligned",
                            FunctionType::get(Ptr, {I64, I64}, false), Created);
  if (!Created)
    return F;
  // posix_memalign accepts any power of two from sizeof(void *) up; the
  // primal's own alignment is one, or the primal failed and its result is
  // unused. Below 16, malloc's alignment is enough.
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Fail = BasicBlock::Create(C, "oom", F);
  BasicBlock *Ok = BasicBlock::Create(C, "ok", F);
  IRBuilder<> B(Entry);
  Value *Slot = B.CreateAlloca(Ptr);
  Value *Align = B.CreateBinaryIntrinsic(Intrinsic::umax, F->getArg(0),
                                         ConstantInt::get(I64, 16));
  Value *Size = F->getArg(1);
  FunctionCallee Memalign =
      M.getOrInsertFunction("posix_memalign", I32, Ptr, I64, I64);
  Value *Status = B.CreateCall(Memalign, {Slot, Align, Size});
  B.CreateCondBr(B.CreateIsNotNull(Status), Fail, Ok);
  B.SetInsertPoint(Fail);
  emitAbort(B);
  B.SetInsertPoint(Ok);
  Value *Mem = B.CreateLoad(Ptr, Slot);
  B.CreateMemSet(Mem, B.getInt8(0), Size, MaybeAlign());
  B.CreateRet(Mem);
  return F;
}

Function *RuntimeFunctions::shadowAllocOut() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  bool Created;
  Function *F =
      getOrCreate("__ad_shadow_alloc_out",
                  FunctionType::get(Ptr, {Ptr, I64, I64, I32}, false), Created);
  if (!Created)
    return F;
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Alloc = BasicBlock::Create(C, "alloc", F);
  BasicBlock *Failed = BasicBlock::Create(C, "failed", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateIsNull(F->getArg(3)), Alloc, Failed);
  B.SetInsertPoint(Alloc);
  Value *Mem = B.CreateCall(shadowAllocAligned(), {F->getArg(1), F->getArg(2)});
  B.CreateStore(Mem, F->getArg(0));
  B.CreateRet(Mem);
  B.SetInsertPoint(Failed);
  B.CreateRet(Constant::getNullValue(Ptr));
  return F;
}

/// libstdc++'s std::_Rb_tree_node_base: { _Rb_tree_color colour (an int,
/// red = 0), parent, left, right } (part of the library's ABI).
static StructType *rbNodeType(LLVMContext &C) {
  Type *Ptr = PointerType::getUnqual(C);
  return StructType::get(C, {Type::getInt32Ty(C), Ptr, Ptr, Ptr});
}
enum RbField { RbColour = 0, RbParent = 1, RbLeft = 2, RbRight = 3 };

Function *RuntimeFunctions::rbTreeSyncSubtree() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_rb_tree_sync_subtree",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I32}, false), Created);
  if (!Created)
    return F;
  StructType *Node = rbNodeType(C);
  Value *N = F->getArg(0), *S = F->getArg(1), *Depth = F->getArg(2);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Copy = BasicBlock::Create(C, "copy", F);
  BasicBlock *Down = BasicBlock::Create(C, "down", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateOr(B.CreateIsNull(N), B.CreateIsNull(S)), Done, Copy);
  B.SetInsertPoint(Copy);
  B.CreateStore(B.CreateLoad(I32, B.CreateStructGEP(Node, N, RbColour)),
                B.CreateStructGEP(Node, S, RbColour));
  B.CreateCondBr(B.CreateICmpEQ(Depth, B.getInt32(0)), Done, Down);
  B.SetInsertPoint(Down);
  Value *Less = B.CreateSub(Depth, B.getInt32(1));
  for (RbField Child : {RbLeft, RbRight})
    B.CreateCall(F,
                 {B.CreateLoad(Ptr, B.CreateStructGEP(Node, N, Child)),
                  B.CreateLoad(Ptr, B.CreateStructGEP(Node, S, Child)), Less});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::rbTreeSyncColours() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_rb_tree_sync_colours",
      FunctionType::get(Type::getVoidTy(C),
                        {Ptr, Ptr, Ptr, Ptr, Type::getInt1Ty(C)}, false),
      Created);
  if (!Created)
    return F;
  StructType *Node = rbNodeType(C);
  Function *Subtree = rbTreeSyncSubtree();
  Value *N0 = F->getArg(0), *S0 = F->getArg(1), *H = F->getArg(2),
        *SH = F->getArg(3), *FromSuccessor = F->getArg(4);
  auto Link = [&](IRBuilderBase &B, Value *X, RbField Field) {
    return B.CreateLoad(Ptr, B.CreateStructGEP(Node, X, Field));
  };
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *NodeOnly = BasicBlock::Create(C, "node.only", F);
  BasicBlock *Path = BasicBlock::Create(C, "path", F);
  BasicBlock *Right = BasicBlock::Create(C, "successor", F);
  BasicBlock *Leftmost = BasicBlock::Create(C, "leftmost", F);
  BasicBlock *Up = BasicBlock::Create(C, "up", F);
  BasicBlock *UpBody = BasicBlock::Create(C, "up.body", F);
  BasicBlock *Top = BasicBlock::Create(C, "header", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateIsNull(H), NodeOnly, Path);

  B.SetInsertPoint(NodeOnly);
  B.CreateCall(Subtree, {N0, S0, B.getInt32(0)});
  B.CreateRetVoid();

  // With two children, erase rebalances from the in-order successor: the
  // leftmost node of the right subtree.
  B.SetInsertPoint(Path);
  Value *TwoChildren = B.CreateAnd(B.CreateIsNotNull(Link(B, N0, RbLeft)),
                                   B.CreateIsNotNull(Link(B, N0, RbRight)));
  B.CreateCondBr(B.CreateAnd(FromSuccessor, TwoChildren), Right, Up);
  B.SetInsertPoint(Right);
  Value *RN = Link(B, N0, RbRight), *RS = Link(B, S0, RbRight);
  B.CreateBr(Leftmost);
  B.SetInsertPoint(Leftmost);
  PHINode *LN = B.CreatePHI(Ptr, 2), *LS = B.CreatePHI(Ptr, 2);
  LN->addIncoming(RN, Right);
  LS->addIncoming(RS, Right);
  Value *NextN = Link(B, LN, RbLeft);
  LN->addIncoming(NextN, Leftmost);
  LS->addIncoming(Link(B, LS, RbLeft), Leftmost);
  B.CreateCondBr(B.CreateIsNull(NextN), Up, Leftmost);

  // Up the path to the header, around each node two levels down.
  B.SetInsertPoint(Up);
  PHINode *PN = B.CreatePHI(Ptr, 3), *PS = B.CreatePHI(Ptr, 3);
  PN->addIncoming(N0, Path);
  PS->addIncoming(S0, Path);
  PN->addIncoming(LN, Leftmost);
  PS->addIncoming(LS, Leftmost);
  B.CreateCondBr(B.CreateOr(B.CreateICmpEQ(PN, H), B.CreateIsNull(PS)), Top,
                 UpBody);
  B.SetInsertPoint(UpBody);
  B.CreateCall(Subtree, {PN, PS, B.getInt32(2)});
  PN->addIncoming(Link(B, PN, RbParent), UpBody);
  PS->addIncoming(Link(B, PS, RbParent), UpBody);
  B.CreateBr(Up);

  B.SetInsertPoint(Top);
  B.CreateCall(Subtree, {H, SH, B.getInt32(0)});
  B.CreateRetVoid();
  return F;
}

Value *RuntimeFunctions::allocateShadow(IRBuilderBase &B, Value *Count,
                                        Value *Size, Value *Align) {
  Type *I64 = B.getInt64Ty();
  Size = B.CreateZExtOrTrunc(Size, I64);
  if (!Align)
    return B.CreateCall(calloc(),
                        {Count ? B.CreateZExtOrTrunc(Count, I64)
                               : static_cast<Value *>(B.getInt64(1)),
                         Size},
                        "shadow.alloc");
  if (Count)
    Size = B.CreateMul(B.CreateZExtOrTrunc(Count, I64), Size);
  return B.CreateCall(shadowAllocAligned(),
                      {B.CreateZExtOrTrunc(Align, I64), Size}, "shadow.alloc");
}

Value *RuntimeFunctions::allocateShadowOut(IRBuilderBase &B, Value *ShadowOut,
                                           Value *Align, Value *Size,
                                           Value *Status) {
  Type *I64 = B.getInt64Ty();
  return B.CreateCall(shadowAllocOut(),
                      {ShadowOut, B.CreateZExtOrTrunc(Align, I64),
                       B.CreateZExtOrTrunc(Size, I64),
                       B.CreateZExtOrTrunc(Status, B.getInt32Ty())},
                      "shadow.alloc");
}

FunctionCallee RuntimeFunctions::calloc() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  if (!onGPU())
    return M.getOrInsertFunction("calloc", Ptr, I64, I64);
  // Device code has malloc but no calloc: ptr __ad_calloc(i64 n, i64 size).
  bool Created;
  Function *F = getOrCreate("__ad_calloc",
                            FunctionType::get(Ptr, {I64, I64}, false), Created);
  if (!Created)
    return F;
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Zero = BasicBlock::Create(C, "zero", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Bytes = B.CreateMul(F->getArg(0), F->getArg(1));
  Value *Mem = B.CreateCall(M.getOrInsertFunction("malloc", Ptr, I64), {Bytes});
  B.CreateCondBr(B.CreateIsNull(Mem), Done, Zero);
  B.SetInsertPoint(Zero);
  B.CreateMemSet(Mem, B.getInt8(0), Bytes, MaybeAlign());
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRet(Mem);
  return F;
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
  Value *Idx =
      Ascending ? static_cast<Value *>(K)
                : B.CreateSub(B.CreateSub(Count, ConstantInt::get(I64, 1)), K);
  Value *Off = B.CreateMul(Idx, Stride);
  Value *DP = B.CreateGEP(B.getInt8Ty(), Dst, Off);
  Value *SP = B.CreateGEP(B.getInt8Ty(), Src, Off);
  if (FPTy->isPointerTy()) { // The forward sweep's copy of a shadow pointer.
    B.CreateStore(B.CreateLoad(FPTy, SP), DP);
  } else {
    Value *D = B.CreateLoad(FPTy, DP);
    B.CreateStore(ConstantFP::get(FPTy, 0.0), DP);
    B.CreateStore(B.CreateFAdd(B.CreateLoad(FPTy, SP), D), SP);
  }
  Value *Next = B.CreateAdd(K, ConstantInt::get(I64, 1));
  K->addIncoming(Next, Body);
  B.CreateCondBr(B.CreateICmpEQ(Next, Count), Exit, Body);
}

Function *RuntimeFunctions::firstEqual(Type *FPTy) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  std::string Name = "__ad_first_equal.";
  raw_string_ostream(Name) << *FPTy;
  bool Created;
  Function *F = getOrCreate(
      Name, FunctionType::get(I64, {Ptr, I64, FPTy}, false), Created);
  if (!Created)
    return F;
  F->setOnlyReadsMemory();
  F->setOnlyAccessesArgMemory();
  F->addFnAttr(Attribute::NoFree);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "search", F);
  BasicBlock *Found = BasicBlock::Create(C, "found", F);
  IRBuilder<> B(Entry);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(I64, 2, "k");
  Value *At =
      B.CreateGEP(B.getInt8Ty(), F->getArg(0), B.CreateMul(K, F->getArg(1)));
  Value *Element = B.CreateAlignedLoad(FPTy, At, Align(1));
  Value *Next = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(B.getInt64(0), Entry);
  K->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateFCmpOEQ(Element, F->getArg(2)), Found, Loop);
  B.SetInsertPoint(Found);
  B.CreateRet(K);
  return F;
}

Function *RuntimeFunctions::memcpyPointers() {
  return memcpyAdjoint(PointerType::getUnqual(M.getContext()));
}

Function *RuntimeFunctions::memcpyAdjoint(Type *FPTy) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  std::string Name =
      FPTy->isPointerTy() ? "__ad_memcpy_pointers" : "__ad_memcpy_adjoint.";
  if (!FPTy->isPointerTy())
    raw_string_ostream(Name) << *FPTy;
  bool Created;
  Function *F = getOrCreate(
      Name, FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64, I64}, false),
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
