//===- TapeRuntime.cpp - The tape's run-time functions, emitted as IR ----===//
//
// push, pop, grow, reserve and free, and the per-thread cache of one buffer
// that free fills and the first growth of the next tape takes back: a
// gradient called in a loop then reuses its buffer, and the buffer's pages,
// instead of allocating and faulting them in on every call. The cache is
// the value of a pthread key whose destructor is free: a thread's buffer is
// released when the thread exits (the main thread's stays allocated until
// the process ends, reachable). Where there is no pthread key (targets
// other than Linux, GPUs, or a C library without pthread_key_create) free
// releases the buffer as before. See RuntimeFunctions.h and docs/OPTIONS.md.
//
//===----------------------------------------------------------------------===//
#include "core/IRHelpers.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/TargetParser/Triple.h"

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

Value *RuntimeFunctions::reallocBuffer(IRBuilderBase &B, Value *Tape,
                                       Value *Capacity) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  Value *Data = B.CreateLoad(Ptr, B.CreateStructGEP(tapeType(), Tape, 0));
  if (!onGPU()) {
    FunctionCallee Realloc = M.getOrInsertFunction("realloc", Ptr, Ptr, I64);
    return B.CreateCall(Realloc, {Data, Capacity});
  }
  // GPUs have malloc and free in device code, no realloc: a new buffer, the
  // bytes in use copied, the old one freed (a null new buffer leaves the
  // old one, as realloc does).
  Value *Used = B.CreateLoad(I64, B.CreateStructGEP(tapeType(), Tape, 1));
  FunctionCallee Malloc = M.getOrInsertFunction("malloc", Ptr, I64);
  Value *New = B.CreateCall(Malloc, {Capacity});
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Copy = BasicBlock::Create(C, "copy", F);
  BasicBlock *Done = BasicBlock::Create(C, "copied", F);
  B.CreateCondBr(B.CreateIsNull(New), Done, Copy);
  B.SetInsertPoint(Copy);
  B.CreateMemCpy(New, MaybeAlign(8), Data, MaybeAlign(8), Used);
  Value *Cap = B.CreateLoad(I64, B.CreateStructGEP(tapeType(), Tape, 2));
  emitFreeHeapBuffer(B, Data, Cap, Done);
  B.SetInsertPoint(Done);
  PHINode *Result = B.CreatePHI(Ptr, 3);
  for (BasicBlock *Pred : predecessors(Done))
    Result->addIncoming(New, Pred);
  return Result;
}

void RuntimeFunctions::emitFreeHeapBuffer(IRBuilderBase &B, Value *Data,
                                          Value *Cap, BasicBlock *Done) {
  // The thread's local buffer (capacity at most DeviceLocalTapeBytes) is
  // not the heap's.
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Release = BasicBlock::Create(M.getContext(), "release", F);
  B.CreateCondBr(B.CreateICmpUGT(Cap, B.getInt64(DeviceLocalTapeBytes)),
                 Release, Done);
  B.SetInsertPoint(Release);
  B.CreateCall(free(), {Data});
  B.CreateBr(Done);
}

void RuntimeFunctions::setBuffer(IRBuilderBase &B, Value *Tape, Value *Data,
                                 Value *Capacity) {
  B.CreateStore(Data, B.CreateStructGEP(tapeType(), Tape, 0));
  B.CreateStore(Capacity, B.CreateStructGEP(tapeType(), Tape, 2));
}

void RuntimeFunctions::initTape(IRBuilderBase &B, Value *Tape) {
  if (!onGPU()) {
    B.CreateStore(Constant::getNullValue(tapeType()), Tape);
    return;
  }
  // A GPU thread's first records go to a buffer in its local memory.
  AllocaInst *Local =
      B.CreateAlloca(ArrayType::get(B.getInt8Ty(), DeviceLocalTapeBytes),
                     nullptr, "tape.local");
  Local->setAlignment(Align(16));
  Value *Init = PoisonValue::get(tapeType());
  Init = B.CreateInsertValue(Init, Local, 0);
  Init = B.CreateInsertValue(Init, B.getInt64(0), 1);
  Init = B.CreateInsertValue(Init, B.getInt64(DeviceLocalTapeBytes), 2);
  B.CreateStore(Init, Tape);
}

bool RuntimeFunctions::onGPU() const { return isParallelDeviceCode(M); }

void RuntimeFunctions::emitAbort(IRBuilderBase &B) {
  if (onGPU())
    B.CreateIntrinsic(Intrinsic::trap, {});
  else
    B.CreateCall(libraryFunction(
        "abort", FunctionType::get(B.getVoidTy(), /*isVarArg=*/false)));
  B.CreateUnreachable();
}

bool RuntimeFunctions::cachesTape() const {
  // pthread keys are 32-bit there (glibc, musl, bionic); GPU triples are not
  // Linux.
  return M.getTargetTriple().isOSLinux();
}

FunctionCallee RuntimeFunctions::pthread(StringRef Name, Type *Ret,
                                         ArrayRef<Type *> Params) {
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  // Weak: a C library whose pthread functions live in a separate library
  // (glibc before 2.34) links without it, and the tape is not cached.
  auto *F = dyn_cast<Function>(Callee.getCallee());
  if (F && F->isDeclaration() && F->use_empty())
    F->setLinkage(GlobalValue::ExternalWeakLinkage);
  return Callee;
}

GlobalVariable *RuntimeFunctions::tapeCacheKeySlot() {
  if (GlobalVariable *G = M.getNamedGlobal("__ad_tape_key"))
    return G;
  Type *I64 = Type::getInt64Ty(M.getContext());
  auto *G = new GlobalVariable(M, I64, /*isConstant=*/false,
                               GlobalValue::LinkOnceODRLinkage,
                               ConstantInt::get(I64, 0), "__ad_tape_key");
  G->setVisibility(GlobalValue::HiddenVisibility);
  G->setAlignment(Align(8));
  return G;
}

Function *RuntimeFunctions::tapeCacheKey() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  bool Created;
  Function *F = getOrCreate("__ad_tape_cache_key",
                            FunctionType::get(I64, {}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::NoInline);
  // key + 1 once created (by the first thread to get here; a thread that
  // loses the race deletes its own key), 0 when there are no pthread keys.
  FunctionCallee Create = pthread("pthread_key_create", I32, {Ptr, Ptr});
  FunctionCallee Delete = pthread("pthread_key_delete", I32, {I32});
  GlobalVariable *Slot = tapeCacheKeySlot();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Make = BasicBlock::Create(C, "create", F);
  BasicBlock *Call = BasicBlock::Create(C, "call", F);
  BasicBlock *Publish = BasicBlock::Create(C, "publish", F);
  BasicBlock *Lost = BasicBlock::Create(C, "lost", F);
  BasicBlock *None = BasicBlock::Create(C, "none", F);
  BasicBlock *Have = BasicBlock::Create(C, "have", F);
  IRBuilder<> B(Entry);
  Value *Local = B.CreateAlloca(I32);
  LoadInst *Key = B.CreateAlignedLoad(I64, Slot, Align(8));
  Key->setAtomic(AtomicOrdering::Acquire);
  B.CreateCondBr(B.CreateICmpNE(Key, B.getInt64(0)), Have, Make);
  B.SetInsertPoint(Have);
  B.CreateRet(Key);
  B.SetInsertPoint(Make);
  B.CreateCondBr(B.CreateIsNull(Create.getCallee()), None, Call);
  B.SetInsertPoint(Call);
  Value *Status = B.CreateCall(Create, {Local, free().getCallee()});
  B.CreateCondBr(B.CreateIsNotNull(Status), None, Publish);
  B.SetInsertPoint(Publish);
  Value *Mine =
      B.CreateAdd(B.CreateZExt(B.CreateLoad(I32, Local), I64), B.getInt64(1));
  Value *Pair = B.CreateAtomicCmpXchg(Slot, B.getInt64(0), Mine, Align(8),
                                      AtomicOrdering::AcquireRelease,
                                      AtomicOrdering::Acquire);
  BasicBlock *Won = BasicBlock::Create(C, "won", F);
  B.CreateCondBr(B.CreateExtractValue(Pair, 1), Won, Lost);
  B.SetInsertPoint(Won);
  B.CreateRet(Mine);
  B.SetInsertPoint(Lost);
  B.CreateCall(Delete, {B.CreateLoad(I32, Local)});
  B.CreateRet(B.CreateExtractValue(Pair, 0));
  B.SetInsertPoint(None);
  B.CreateRet(B.getInt64(0));
  return F;
}

Function *RuntimeFunctions::tapeTake() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  bool Created;
  Function *F =
      getOrCreate("__ad_tape_take",
                  FunctionType::get(Type::getVoidTy(C), {Ptr}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::NoInline);
  // if (!tape->data && key && (p = getspecific(key)))
  //   setspecific(key, 0), tape->data = p, tape->capacity = *(i64 *)p;
  StructType *TT = tapeType();
  Value *Tape = F->getArg(0);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Look = BasicBlock::Create(C, "look", F);
  BasicBlock *Get = BasicBlock::Create(C, "get", F);
  BasicBlock *Use = BasicBlock::Create(C, "use", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Data = B.CreateLoad(Ptr, B.CreateStructGEP(TT, Tape, 0));
  B.CreateCondBr(B.CreateIsNotNull(Data), Done, Look);
  B.SetInsertPoint(Look);
  LoadInst *Key = B.CreateAlignedLoad(I64, tapeCacheKeySlot(), Align(8));
  Key->setAtomic(AtomicOrdering::Acquire);
  B.CreateCondBr(B.CreateICmpEQ(Key, B.getInt64(0)), Done, Get);
  B.SetInsertPoint(Get);
  Value *K = B.CreateTrunc(B.CreateSub(Key, B.getInt64(1)), I32);
  Value *Cached = B.CreateCall(pthread("pthread_getspecific", Ptr, {I32}), K);
  B.CreateCondBr(B.CreateIsNull(Cached), Done, Use);
  B.SetInsertPoint(Use);
  B.CreateCall(pthread("pthread_setspecific", I32, {I32, Ptr}),
               {K, Constant::getNullValue(Ptr)});
  setBuffer(B, Tape, Cached, B.CreateLoad(I64, Cached));
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::tapeGrow() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_tape_grow",
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Cold);
  // take(tape) (an empty tape takes the cached buffer); if need > capacity:
  // capacity = max(need, 2 * capacity (saturating), 4096);
  // data = realloc(data, capacity)
  Value *Tape = F->getArg(0), *Need = F->getArg(1);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Grow = BasicBlock::Create(C, "grow", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  if (cachesTape())
    B.CreateCall(tapeTake(), {Tape});
  Value *Cap = B.CreateLoad(I64, B.CreateStructGEP(tapeType(), Tape, 2));
  B.CreateCondBr(B.CreateICmpUGT(Need, Cap), Grow, Done);
  B.SetInsertPoint(Grow);
  Value *NewCap = B.CreateBinaryIntrinsic(
      Intrinsic::umax, Need,
      B.CreateBinaryIntrinsic(Intrinsic::uadd_sat, Cap, Cap));
  // On a host the first buffer is a page; a GPU thread starts from its
  // local buffer (initTape) and grows from there: the device heap (8 MiB
  // by default) is shared by every thread of the launch.
  if (!onGPU())
    NewCap = B.CreateBinaryIntrinsic(Intrinsic::umax, NewCap,
                                     ConstantInt::get(I64, 4096));
  Value *Data = reallocBuffer(B, Tape, NewCap);
  // Out of memory: stop rather than write through null.
  BasicBlock *Fail = BasicBlock::Create(C, "oom", F);
  BasicBlock *Ok = BasicBlock::Create(C, "ok", F);
  B.CreateCondBr(B.CreateIsNull(Data), Fail, Ok);
  B.SetInsertPoint(Fail);
  emitAbort(B);
  B.SetInsertPoint(Ok);
  setBuffer(B, Tape, Data, NewCap);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// Moves the top of \p Tape by \p Bytes, up (a push: the record starts at
/// the old top) or down (a pop: at the new one), and returns the record.
static Value *moveTop(IRBuilderBase &B, StructType *TT, Value *Tape,
                      Value *Bytes, bool Up) {
  Value *SizePtr = B.CreateStructGEP(TT, Tape, 1);
  Value *Old = B.CreateLoad(B.getInt64Ty(), SizePtr);
  Value *New = Up ? B.CreateAdd(Old, Bytes) : B.CreateSub(Old, Bytes);
  B.CreateStore(New, SizePtr);
  Value *Data = B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(TT, Tape, 0));
  return B.CreateGEP(B.getInt8Ty(), Data, Up ? Old : New);
}

/// The bytes \p Tape holds once \p Bytes more are pushed (saturating: no
/// allocation meets a saturated need), and its capacity.
static std::pair<Value *, Value *>
needAndCapacity(IRBuilderBase &B, StructType *TT, Value *Tape, Value *Bytes) {
  Value *Size = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(TT, Tape, 1));
  Value *Cap = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(TT, Tape, 2));
  return {B.CreateBinaryIntrinsic(Intrinsic::uadd_sat, Size, Bytes), Cap};
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
  grantFloatingPointPermissions(*F);
  // size + bytes cannot wrap: size is at most the capacity, which an
  // allocation gave, and bytes is one record.
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

Function *RuntimeFunctions::topMover(StringRef Name, bool Up) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F =
      getOrCreate(Name, FunctionType::get(Ptr, {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::AlwaysInline);
  grantFloatingPointPermissions(*F);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateRet(moveTop(B, tapeType(), F->getArg(0), F->getArg(1), Up));
  return F;
}

Function *RuntimeFunctions::tapePushUnchecked() {
  return topMover("__ad_tape_push_unchecked", /*Up=*/true);
}

Function *RuntimeFunctions::tapeEnsure() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  bool Created;
  Function *F = getOrCreate(
      "__ad_tape_ensure",
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64}, false), Created);
  if (!Created)
    return F;
  F->addFnAttr(Attribute::AlwaysInline);
  grantFloatingPointPermissions(*F);
  // need = size + bytes, saturating: a need no allocation can meet makes
  // grow abort, never a push past the end.
  StructType *TT = tapeType();
  Value *Tape = F->getArg(0), *Bytes = F->getArg(1);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Grow = BasicBlock::Create(C, "grow", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  auto [Need, Cap] = needAndCapacity(B, TT, Tape, Bytes);
  B.CreateCondBr(B.CreateICmpUGT(Need, Cap), Grow, Done);
  B.SetInsertPoint(Grow);
  B.CreateCall(tapeGrow(), {Tape, Need});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

Function *RuntimeFunctions::tapePop() {
  return topMover("__ad_tape_pop", /*Up=*/false);
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
  // take(tape); need = size + bytes (saturating);
  // if (need > capacity && need <= MaxTapeBytes)
  //   if (data' = realloc(data, need)) data = data', capacity = need
  // A request beyond MaxTapeBytes (a saturated bound among them) cannot be
  // allocated and is ignored; a failed reallocation is left to the pushes,
  // which grow or abort.
  StructType *TT = tapeType();
  Value *Tape = F->getArg(0), *Bytes = F->getArg(1);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Grow = BasicBlock::Create(C, "grow", F);
  BasicBlock *Got = BasicBlock::Create(C, "got", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  if (cachesTape())
    B.CreateCall(tapeTake(), {Tape});
  auto [Need, Cap] = needAndCapacity(B, TT, Tape, Bytes);
  Value *Short = B.CreateICmpUGT(Need, Cap);
  Value *Sane = B.CreateICmpULE(Need, B.getInt64(MaxTapeBytes));
  B.CreateCondBr(B.CreateAnd(Short, Sane), Grow, Done);
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
  Function *F =
      getOrCreate("__ad_tape_free",
                  FunctionType::get(Type::getVoidTy(C), {Ptr}, false), Created);
  if (!Created)
    return F;
  // The tape is left empty (null, 0, 0): a later push grows it anew.
  StructType *TT = tapeType();
  Value *Tape = F->getArg(0);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Data = B.CreateLoad(Ptr, B.CreateStructGEP(TT, Tape, 0));
  if (onGPU()) {
    // A heap buffer, not the thread's local one (initTape).
    Value *Cap = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(TT, Tape, 2));
    B.CreateStore(Constant::getNullValue(TT), Tape);
    BasicBlock *Done = BasicBlock::Create(C, "done", F);
    emitFreeHeapBuffer(B, Data, Cap, Done);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
    return F;
  }
  if (!cachesTape()) {
    B.CreateStore(Constant::getNullValue(TT), Tape);
    B.CreateCall(free(), {Data});
    B.CreateRetVoid();
    return F;
  }
  Value *Cap = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(TT, Tape, 2));
  B.CreateStore(Constant::getNullValue(TT), Tape);
  BasicBlock *Cache = BasicBlock::Create(C, "cache", F);
  BasicBlock *Release = BasicBlock::Create(C, "release", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  B.CreateCondBr(B.CreateIsNull(Data), Done, Cache);
  B.SetInsertPoint(Cache);
  emitCacheBuffer(B, Data, Cap, Release, Done);
  B.SetInsertPoint(Release);
  B.CreateCall(free(), {Data});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

void RuntimeFunctions::emitCacheBuffer(IRBuilderBase &B, Value *Data,
                                       Value *Cap, BasicBlock *Release,
                                       BasicBlock *Done) {
  // A buffer too small to hold its capacity is not worth keeping; one no
  // larger than the buffer already cached is released; otherwise it
  // replaces (and releases) the cached one.
  LLVMContext &C = M.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  BasicBlock *Key = BasicBlock::Create(C, "key", F, Release);
  BasicBlock *Get = BasicBlock::Create(C, "get", F, Release);
  BasicBlock *Compare = BasicBlock::Create(C, "compare", F, Release);
  BasicBlock *Keep = BasicBlock::Create(C, "keep", F, Release);
  BasicBlock *Drop = BasicBlock::Create(C, "drop.old", F, Release);
  B.CreateCondBr(B.CreateICmpULT(Cap, B.getInt64(8)), Release, Key);
  B.SetInsertPoint(Key);
  Value *K1 = B.CreateCall(tapeCacheKey());
  B.CreateCondBr(B.CreateICmpEQ(K1, B.getInt64(0)), Release, Get);
  B.SetInsertPoint(Get);
  Value *K = B.CreateTrunc(B.CreateSub(K1, B.getInt64(1)), I32);
  Value *Old = B.CreateCall(pthread("pthread_getspecific", Ptr, {I32}), K);
  B.CreateCondBr(B.CreateIsNull(Old), Keep, Compare);
  B.SetInsertPoint(Compare);
  B.CreateCondBr(B.CreateICmpUGE(B.CreateLoad(I64, Old), Cap), Release, Keep);
  B.SetInsertPoint(Keep);
  B.CreateStore(Cap, Data);
  Value *Status =
      B.CreateCall(pthread("pthread_setspecific", I32, {I32, Ptr}), {K, Data});
  B.CreateCondBr(B.CreateIsNotNull(Status), Release, Drop);
  B.SetInsertPoint(Drop);
  B.CreateCall(free(), {Old}); // free(NULL) does nothing
  B.CreateBr(Done);
}

} // namespace ad
