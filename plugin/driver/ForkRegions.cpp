//===- ForkRegions.cpp - Parallel regions forked again --------------------===//
#include "driver/ForkRegions.h"
#include "core/ParallelRegionCalls.h"
#include "runtime/RuntimeFunctions.h"
#include "support/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

/// A team's table of tapes: { i64 threads, i64 capacity }, then capacity
/// tapes. The forward sweep's thread 0 writes the team's size, which the
/// adjoint's fork asks for again.
constexpr uint64_t TableHeaderBytes = 16;

/// libomp's entry points, declared as clang declares them.
struct OpenMPRuntime {
  Module &M;
  Type *Ptr = PointerType::getUnqual(M.getContext());
  Type *I32 = Type::getInt32Ty(M.getContext());
  Type *Void = Type::getVoidTy(M.getContext());

  FunctionCallee threadNum() {
    return M.getOrInsertFunction("omp_get_thread_num", I32);
  }
  FunctionCallee numThreads() {
    return M.getOrInsertFunction("omp_get_num_threads", I32);
  }
  FunctionCallee maxThreads() {
    return M.getOrInsertFunction("omp_get_max_threads", I32);
  }
  FunctionCallee globalThreadNum() {
    return M.getOrInsertFunction("__kmpc_global_thread_num", I32, Ptr);
  }
  FunctionCallee pushNumThreads() {
    return M.getOrInsertFunction("__kmpc_push_num_threads", Void, Ptr, I32,
                                 I32);
  }
  FunctionCallee fork() {
    return M.getOrInsertFunction(
        "__kmpc_fork_call", FunctionType::get(Void, {Ptr, I32, Ptr}, true));
  }
};

class RegionForker {
public:
  RegionForker(Module &M, RuntimeFunctions &Runtime)
      : M(M), Runtime(Runtime), Omp{M},
        TapeBytes(M.getDataLayout().getTypeAllocSize(Runtime.tapeType())) {}

  void fork(CallBase &Call);
  SmallVector<Function *, 4> Entries;

private:
  Function *teamEntry(Function &Callee, RegionRole Role, StructType *Pack);
  Value *threadTape(IRBuilderBase &B, Value *Table, Value *Thread);
  void abortUnless(IRBuilderBase &B, Value *Ok);

  Module &M;
  RuntimeFunctions &Runtime;
  OpenMPRuntime Omp;
  uint64_t TapeBytes;
  DenseMap<std::pair<Function *, unsigned>, Function *> EntryOf;
};

/// The team size a `num_threads(n)` clause asked for just before \p Call.
Value *requestedThreads(CallBase &Call) {
  for (Instruction *I = Call.getPrevNode(); I; I = I->getPrevNode())
    if (auto *C = dyn_cast<CallBase>(I)) {
      if (isParallelRegionCall(*C))
        return nullptr;
      Function *F = C->getCalledFunction();
      if (F && F->getName() == "__kmpc_push_num_threads")
        return C->getArgOperand(2);
    }
  return nullptr;
}

Value *RegionForker::threadTape(IRBuilderBase &B, Value *Table, Value *Thread) {
  Value *Offset = B.CreateAdd(
      B.getInt64(TableHeaderBytes),
      B.CreateMul(B.CreateZExt(Thread, B.getInt64Ty()), B.getInt64(TapeBytes)));
  return B.CreateGEP(B.getInt8Ty(), Table, Offset, "ad.omp.tape");
}

/// Continues at B when \p Ok holds, aborts otherwise: a team that is not
/// the one the tapes were made for cannot be differentiated.
void RegionForker::abortUnless(IRBuilderBase &B, Value *Ok) {
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Go = BasicBlock::Create(M.getContext(), "ad.omp.ok", F);
  BasicBlock *Fail = BasicBlock::Create(M.getContext(), "ad.omp.fail", F);
  B.CreateCondBr(Ok, Go, Fail);
  B.SetInsertPoint(Fail);
  Runtime.emitAbort(B);
  B.SetInsertPoint(Go);
}

/// void entry(ptr gtid, ptr btid, ptr pack): what every thread of the team
/// runs: the packed arguments unpacked, the thread's tape found, and the
/// body's derivative called.
Function *RegionForker::teamEntry(Function &Callee, RegionRole Role,
                                  StructType *Pack) {
  Function *&Entry = EntryOf[{&Callee, unsigned(Role)}];
  if (Entry)
    return Entry;
  LLVMContext &C = M.getContext();
  auto *FT = FunctionType::get(Omp.Void, {Omp.Ptr, Omp.Ptr, Omp.Ptr}, false);
  Entry = Function::Create(FT, GlobalValue::InternalLinkage,
                           Callee.getName() + ".team", M);
  Entry->addParamAttr(0, Attribute::NoAlias);
  Entry->addParamAttr(1, Attribute::NoAlias);
  Entries.push_back(Entry);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Entry));
  SmallVector<Value *, 8> Args;
  if (Role != RegionRole::Adjoint)
    Args = {Entry->getArg(0), Entry->getArg(1)};
  for (unsigned I = 0; I < Pack->getNumElements(); ++I)
    Args.push_back(B.CreateLoad(Pack->getElementType(I),
                                B.CreateStructGEP(Pack, Entry->getArg(2), I)));
  Value *Tape = nullptr;
  if (Role == RegionRole::Augmented || Role == RegionRole::Adjoint) {
    Value *Table = Args.pop_back_val();
    Value *Thread = B.CreateCall(Omp.threadNum(), {}, "ad.omp.thread");
    Value *Threads = B.CreateSExt(B.CreateCall(Omp.numThreads()),
                                  B.getInt64Ty(), "ad.omp.threads");
    if (Role == RegionRole::Augmented) {
      // Thread 0 writes the team's size; the fork's join publishes it.
      Value *Capacity = B.CreateLoad(
          B.getInt64Ty(), B.CreateConstGEP1_64(B.getInt8Ty(), Table, 8));
      abortUnless(B, B.CreateICmpULE(Threads, Capacity));
      BasicBlock *Write = BasicBlock::Create(C, "ad.omp.size", Entry);
      BasicBlock *Run = BasicBlock::Create(C, "ad.omp.run", Entry);
      B.CreateCondBr(B.CreateICmpEQ(Thread, B.getInt32(0)), Write, Run);
      B.SetInsertPoint(Write);
      B.CreateStore(Threads, Table);
      B.CreateBr(Run);
      B.SetInsertPoint(Run);
    } else {
      abortUnless(B,
                  B.CreateICmpEQ(Threads, B.CreateLoad(B.getInt64Ty(), Table)));
    }
    Tape = threadTape(B, Table, Thread);
    Args.push_back(Tape);
  }
  B.CreateCall(&Callee, Args);
  if (Role == RegionRole::Adjoint)
    B.CreateCall(Runtime.tapeFree(), {Tape});
  B.CreateRetVoid();
  return Entry;
}

void RegionForker::fork(CallBase &Call) {
  RegionRole Role = parallelRegionRole(Call);
  Value *Loc = parallelRegionLocation(Call);
  Function &Callee = *Call.getCalledFunction();
  IRBuilder<> B(&Call);
  LLVMContext &C = M.getContext();
  if (Role == RegionRole::Primal) {
    SmallVector<Value *, 8> Args{
        Loc, B.getInt32(Call.arg_size() - RegionThreadIdParams), &Callee};
    Args.append(Call.arg_begin() + RegionThreadIdParams, Call.arg_end());
    B.CreateCall(Omp.fork(), Args);
    Call.eraseFromParent();
    return;
  }
  bool Taped = Role == RegionRole::Augmented || Role == RegionRole::Adjoint;
  unsigned First = Role == RegionRole::Adjoint ? 0 : RegionThreadIdParams;
  unsigned End = Call.arg_size() - (Taped ? 1 : 0);
  SmallVector<Value *, 8> Packed(Call.arg_begin() + First,
                                 Call.arg_begin() + End);
  Value *Table = nullptr;
  if (Role == RegionRole::Augmented) {
    Value *Capacity = B.CreateCall(Omp.maxThreads());
    if (Value *Requested = requestedThreads(Call))
      Capacity = B.CreateBinaryIntrinsic(Intrinsic::smax, Capacity, Requested);
    Capacity = B.CreateZExt(Capacity, B.getInt64Ty());
    Value *Bytes = B.CreateAdd(B.getInt64(TableHeaderBytes),
                               B.CreateMul(Capacity, B.getInt64(TapeBytes)));
    Table = B.CreateCall(M.getOrInsertFunction("calloc", Omp.Ptr,
                                               B.getInt64Ty(), B.getInt64Ty()),
                         {B.getInt64(1), Bytes}, "ad.omp.tapes");
    B.CreateStore(Capacity, B.CreateConstGEP1_64(B.getInt8Ty(), Table, 8));
    Value *Record = B.CreateCall(Runtime.tapePush(),
                                 {Call.getArgOperand(End), B.getInt64(8)});
    B.CreateStore(Table, Record);
  } else if (Role == RegionRole::Adjoint) {
    Value *Record = B.CreateCall(Runtime.tapePop(),
                                 {Call.getArgOperand(End), B.getInt64(8)});
    Table = B.CreateLoad(Omp.Ptr, Record, "ad.omp.tapes");
    Value *Threads =
        B.CreateTrunc(B.CreateLoad(B.getInt64Ty(), Table), Omp.I32);
    B.CreateCall(Omp.pushNumThreads(),
                 {Loc, B.CreateCall(Omp.globalThreadNum(), {Loc}), Threads});
  }
  if (Table)
    Packed.push_back(Table);
  SmallVector<Type *, 8> Types;
  for (Value *V : Packed)
    Types.push_back(V->getType());
  StructType *Pack = StructType::get(C, Types);
  Function &Caller = *Call.getFunction();
  auto *Slot = new AllocaInst(Pack, M.getDataLayout().getAllocaAddrSpace(),
                              "ad.omp.args",
                              Caller.getEntryBlock().getFirstInsertionPt());
  for (auto [I, V] : enumerate(Packed))
    B.CreateStore(V, B.CreateStructGEP(Pack, Slot, I));
  B.CreateCall(Omp.fork(),
               {Loc, B.getInt32(1), teamEntry(Callee, Role, Pack), Slot});
  if (Role == RegionRole::Adjoint)
    B.CreateCall(M.getOrInsertFunction("free", Omp.Void, Omp.Ptr), {Table});
  Call.eraseFromParent();
}

} // namespace

void forkParallelRegions(SmallVectorImpl<Function *> &Functions,
                         RuntimeFunctions &Runtime, DiagnosticReporter &Diag) {
  if (Functions.empty())
    return;
  RegionForker Forker(*Functions.front()->getParent(), Runtime);
  for (Function *F : Functions) {
    SmallVector<CallBase *, 4> Regions;
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && isParallelRegionCall(*Call))
        Regions.push_back(Call);
    for (CallBase *Call : Regions) {
      if (!Call->getType()->isVoidTy() || !Call->getCalledFunction()) {
        // An adjoint returns the adjoints of arguments passed by value,
        // which clang never gives a region's body.
        Diag.error(Call,
                   "internal error: a parallel region's derivative returns "
                   "a value",
                   "please report this with the source file");
        continue;
      }
      Forker.fork(*Call);
    }
  }
  Functions.append(Forker.Entries);
}

} // namespace ad
