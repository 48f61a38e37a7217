//===- ForkRegions.cpp - Parallel regions forked again --------------------===//
#include "driver/ForkRegions.h"
#include "analysis/PrivateShadows.h"
#include "analysis/RegionFootprint.h"
#include "analysis/RegionRanges.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "runtime/RuntimeFunctions.h"
#include "support/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

/// A team's table of tapes: a header { i64 threads, i64 capacity, i64 the
/// turn counter of the region's critical sections }, for
/// each private shadow { ptr shadow, i64 low, i64 bytes, i64 thread 0 adds
/// in place }; then for
/// each thread its tape and, for each private shadow, { ptr slot, ptr
/// buffer } (analysis/PrivateShadows.h): the slot, which the thread's
/// forward sweep reads as the captured pointer's shadow, holds
/// buffer - low. The forward sweep's thread 0 writes the team's size,
/// which the adjoint's fork asks for again.
constexpr uint64_t TableHeaderBytes = 24, PrivateHeaderBytes = 32,
                   PrivateThreadBytes = 16;

/// What one region call keeps per thread: its private shadows, and where
/// they are in the table.
struct TableLayout {
  SmallVector<PrivateShadow, 2> Privates;
  uint64_t TapeBytes = 0;
  uint64_t header() const {
    return TableHeaderBytes + PrivateHeaderBytes * Privates.size();
  }
  uint64_t perThread() const {
    return TapeBytes + PrivateThreadBytes * Privates.size();
  }
  uint64_t privateHeader(unsigned P) const {
    return TableHeaderBytes + PrivateHeaderBytes * P;
  }
  uint64_t privateSlot(unsigned P) const {
    return TapeBytes + PrivateThreadBytes * P;
  }
};

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
  RegionForker(Module &M, RuntimeFunctions &Runtime,
               FunctionAnalysisManager &FAM)
      : M(M), Runtime(Runtime), FAM(FAM), Omp{M},
        TapeBytes(M.getDataLayout().getTypeAllocSize(Runtime.tapeType())) {}

  void fork(CallBase &Call);
  SmallVector<Function *, 4> Entries;

private:
  TableLayout layoutOf(const CallBase &Call);
  Function *teamEntry(CallBase &Call, RegionRole Role, StructType *Pack,
                      const TableLayout &Layout);
  Value *threadArea(IRBuilderBase &B, Value *Table, Value *Thread,
                    const TableLayout &Layout);
  void abortUnless(IRBuilderBase &B, Value *Ok);
  void makePrivateShadows(IRBuilderBase &B, Value *Table, Value *Area,
                          Value *Thread, const TableLayout &Layout,
                          SmallVectorImpl<Value *> &Args, const CallBase &Call);
  void sumPrivateShadows(IRBuilderBase &B, Value *Table, Value *Area,
                         Value *Thread, Value *Threads, Value *Gtid, Value *Loc,
                         const TableLayout &Layout);

  Module &M;
  RuntimeFunctions &Runtime;
  FunctionAnalysisManager &FAM;
  OpenMPRuntime Omp;
  uint64_t TapeBytes;
  DenseMap<std::pair<Function *, unsigned>, Function *> EntryOf;
  DenseMap<Function *, RegionFootprint> Footprints;

  Value *inPlaceForThreadZero(IRBuilderBase &B, CallBase &Call,
                              const PrivateShadow &P, Value *Shadow, Value *Low,
                              Value *High);
  const RegionFootprint &footprintOf(Function &Body);
};

/// Bit k of the region body's parameters: the call's index of k's shadow.
unsigned shadowIndex(const RegionShadows &Shadows, unsigned K) {
  return Shadows.Body->arg_size() +
         llvm::popcount(Shadows.Shadowed & ((uint64_t(1) << K) - 1));
}

TableLayout RegionForker::layoutOf(const CallBase &Call) {
  TableLayout L;
  L.TapeBytes = TapeBytes;
  RegionShadows Shadows = parallelRegionShadows(Call);
  if (!Shadows.Private)
    return L;
  // The analysis the derivative's signature took its mask from.
  for (const PrivateShadow &P : privateShadows(
           *Shadows.Body, FAM.getResult<ScalarEvolutionAnalysis>(*Shadows.Body),
           FAM.getResult<LoopAnalysis>(*Shadows.Body)))
    if (Shadows.Private >> P.Arg & 1)
      L.Privates.push_back(P);
  return L;
}

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

/// Thread \p Thread's part of the table; its tape comes first.
Value *RegionForker::threadArea(IRBuilderBase &B, Value *Table, Value *Thread,
                                const TableLayout &Layout) {
  Value *Offset = B.CreateAdd(B.getInt64(Layout.header()),
                              B.CreateMul(B.CreateZExt(Thread, B.getInt64Ty()),
                                          B.getInt64(Layout.perThread())));
  return B.CreateGEP(B.getInt8Ty(), Table, Offset, "ad.omp.tape");
}

static Value *at(IRBuilderBase &B, Value *Base, uint64_t Offset) {
  return B.CreateConstGEP1_64(B.getInt8Ty(), Base, Offset);
}

/// The forward sweep's thread: a zeroed buffer per private shadow, and the
/// captured pointer's shadow slot replaced by one holding buffer - low.
/// Thread 0 adds into the shadow itself (no buffer) where the caller found
/// that no other thread's adds reach that range (inPlaceForThreadZero):
/// nobody else touches it until the sum after the reverse sweeps, so a team
/// of n threads holds n - 1 copies, and one thread none.
void RegionForker::makePrivateShadows(IRBuilderBase &B, Value *Table,
                                      Value *Area, Value *Thread,
                                      const TableLayout &Layout,
                                      SmallVectorImpl<Value *> &Args,
                                      const CallBase &Call) {
  RegionShadows Shadows = parallelRegionShadows(Call);
  LLVMContext &C = M.getContext();
  for (auto [P, Private] : enumerate(Layout.Privates)) {
    Value *Header = at(B, Table, Layout.privateHeader(P));
    Value *Low = B.CreateLoad(B.getInt64Ty(), at(B, Header, 8));
    Value *Bytes = B.CreateLoad(B.getInt64Ty(), at(B, Header, 16));
    Value *First = B.CreateAnd(
        B.CreateICmpEQ(Thread, B.getInt32(0)),
        B.CreateICmpNE(B.CreateLoad(B.getInt64Ty(), at(B, Header, 24)),
                       B.getInt64(0)));
    BasicBlock *From = B.GetInsertBlock();
    Function *Entry = From->getParent();
    BasicBlock *Alloc = BasicBlock::Create(C, "ad.omp.private", Entry);
    BasicBlock *Join = BasicBlock::Create(C, "ad.omp.private.done", Entry);
    B.CreateCondBr(First, Join, Alloc);
    B.SetInsertPoint(Alloc);
    Value *Fresh = B.CreateCall(Runtime.calloc(), {B.getInt64(1), Bytes},
                                "ad.omp.private");
    B.CreateBr(Join);
    B.SetInsertPoint(Join);
    PHINode *Buffer = B.CreatePHI(Omp.Ptr, 2);
    Buffer->addIncoming(Constant::getNullValue(Omp.Ptr), From);
    Buffer->addIncoming(Fresh, Alloc);
    Value *Slot = at(B, Area, Layout.privateSlot(P));
    Value *Shifted =
        B.CreateSelect(First, B.CreateLoad(Omp.Ptr, Header),
                       B.CreateGEP(B.getInt8Ty(), Buffer, B.CreateNeg(Low)));
    B.CreateStore(Shifted, Slot);
    B.CreateStore(Buffer, at(B, Slot, 8));
    // The shadow of the pointer itself, or of the variable holding it.
    Args[shadowIndex(Shadows, Private.Arg)] = Private.Direct ? Shifted : Slot;
  }
}

/// Whether the reverse team's thread 0 may add into private shadow \p P's
/// range of the shadow itself, [Shadow + Low, Shadow + High): every other
/// pointer of the region that has a shadow and no private copy, whose
/// shadow other threads add to (or zero) during the sweep, stays apart
/// from it over what the region reads and writes through it (checked here,
/// before the fork, from the region's footprint); and P is the captured
/// pointer itself.
Value *RegionForker::inPlaceForThreadZero(IRBuilderBase &B, CallBase &Call,
                                          const PrivateShadow &P, Value *Shadow,
                                          Value *Low, Value *High) {
  RegionShadows Shadows = parallelRegionShadows(Call);
  Function &Body = *Shadows.Body;
  if (!P.Direct)
    return B.getFalse();
  const RegionFootprint &FP = footprintOf(Body);
  SmallVector<Value *, 8> Primals(Call.args());
  Type *I64 = B.getInt64Ty();
  Value *Base = B.CreatePtrToInt(Shadow, I64);
  Value *MineLo = B.CreateAdd(Base, Low), *MineHi = B.CreateAdd(Base, High);
  Value *Apart = B.getTrue();
  for (Argument &Arg : Body.args()) {
    unsigned K = Arg.getArgNo();
    if (K < RegionThreadIdParams || K == P.Arg || K >= 64 ||
        !(Shadows.Shadowed >> K & 1) || (Shadows.Private >> K & 1) ||
        !Arg.getType()->isPointerTy() || Arg.use_empty())
      continue;
    auto It = find_if(FP.Parameters,
                      [&](const ParameterFootprint &F) { return F.Arg == K; });
    if (It == FP.Parameters.end() || It->ReadsUnbounded || It->WritesUnbounded)
      return B.getFalse();
    Value *TheirBase =
        B.CreatePtrToInt(Call.getArgOperand(shadowIndex(Shadows, K)), I64);
    for (const std::optional<OffsetRange> &R : {It->Reads, It->Writes}) {
      if (!R)
        continue;
      Value *Lo = emitRegionBound(R->Lo, B, Primals);
      Value *Hi = emitRegionBound(R->Hi, B, Primals);
      if (!Lo || !Hi)
        return B.getFalse();
      Value *TheirLo = B.CreateAdd(TheirBase, B.CreateSExtOrTrunc(Lo, I64));
      Value *TheirHi = B.CreateAdd(TheirBase, B.CreateSExtOrTrunc(Hi, I64));
      Apart = B.CreateAnd(Apart, B.CreateOr(B.CreateICmpULE(TheirHi, MineLo),
                                            B.CreateICmpULE(MineHi, TheirLo)));
    }
  }
  return Apart;
}

const RegionFootprint &RegionForker::footprintOf(Function &Body) {
  auto [It, New] = Footprints.try_emplace(&Body);
  if (New)
    It->second =
        regionFootprint(Body, FAM.getResult<ScalarEvolutionAnalysis>(Body),
                        FAM.getResult<LoopAnalysis>(Body));
  return It->second;
}

/// After the reverse team's sweeps: each thread adds a slice of every
/// thread's buffers into the shadow, between barriers, then frees its own.
void RegionForker::sumPrivateShadows(IRBuilderBase &B, Value *Table,
                                     Value *Area, Value *Thread, Value *Threads,
                                     Value *Gtid, Value *Loc,
                                     const TableLayout &Layout) {
  if (Layout.Privates.empty())
    return;
  FunctionCallee Barrier =
      M.getOrInsertFunction("__kmpc_barrier", Omp.Void, Omp.Ptr, Omp.I32);
  B.CreateCall(Barrier, {Loc, Gtid});
  Value *T = B.CreateZExt(Thread, B.getInt64Ty());
  for (auto [P, Private] : enumerate(Layout.Privates)) {
    Value *Header = at(B, Table, Layout.privateHeader(P));
    Value *Shadow = B.CreateLoad(Omp.Ptr, Header);
    Value *Low = B.CreateLoad(B.getInt64Ty(), at(B, Header, 8));
    Value *Bytes = B.CreateLoad(B.getInt64Ty(), at(B, Header, 16));
    uint64_t Size = M.getDataLayout().getTypeStoreSize(Private.Element);
    Value *N = B.CreateUDiv(Bytes, B.getInt64(Size));
    Value *Begin = B.CreateUDiv(B.CreateMul(T, N), Threads);
    Value *End =
        B.CreateUDiv(B.CreateMul(B.CreateAdd(T, B.getInt64(1)), N), Threads);
    Value *First = at(B, Table, Layout.header() + Layout.privateSlot(P) + 8);
    B.CreateCall(Runtime.teamSumPrivate(Private.Element),
                 {B.CreateGEP(B.getInt8Ty(), Shadow, Low), First,
                  B.getInt64(Layout.perThread()),
                  B.CreateTrunc(Threads, Omp.I32), Begin, End});
  }
  B.CreateCall(Barrier, {Loc, Gtid});
  for (unsigned P = 0; P < Layout.Privates.size(); ++P)
    B.CreateCall(
        Runtime.free(),
        {B.CreateLoad(Omp.Ptr, at(B, Area, Layout.privateSlot(P) + 8))});
}

/// Continues at B when \p Ok holds, aborts otherwise: a team that is not
/// the one the tapes were made for cannot be differentiated.
void RegionForker::abortUnless(IRBuilderBase &B, Value *Ok) {
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Go = BasicBlock::Create(M.getContext(), "ad.omp.ok", F);
  BasicBlock *Fail = BasicBlock::Create(M.getContext(), "ad.omp.fail", F);
  B.CreateCondBr(Ok, Go, Fail);
  B.SetInsertPoint(Fail);
  // Say why before aborting: the likely cause is the user's setting.
  static constexpr char Why[] =
      "ADPlugin: the reverse sweep of an OpenMP region needs a team of the "
      "size its forward sweep had, and libomp gave another (OMP_DYNAMIC=true "
      "or a thread limit?); run with OMP_DYNAMIC=false\n";
  B.CreateCall(M.getOrInsertFunction("write", B.getInt64Ty(), B.getInt32Ty(),
                                     Omp.Ptr, B.getInt64Ty()),
               {B.getInt32(2), B.CreateGlobalString(Why, "ad.omp.why"),
                B.getInt64(sizeof(Why) - 1)});
  Runtime.emitAbort(B);
  B.SetInsertPoint(Go);
}

/// void entry(ptr gtid, ptr btid, ptr pack): what every thread of the team
/// runs: the packed arguments unpacked, the thread's tape found, and the
/// body's derivative called.
Function *RegionForker::teamEntry(CallBase &Call, RegionRole Role,
                                  StructType *Pack, const TableLayout &Layout) {
  Function &Callee = *Call.getCalledFunction();
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
  // An adjoint returns the adjoints of values passed by value (a
  // firstprivate double): each thread adds its own into the caller's sum.
  Value *Sum = nullptr;
  if (Role == RegionRole::Adjoint && !Callee.getReturnType()->isVoidTy()) {
    Value *Table = Args.pop_back_val();
    Sum = Args.pop_back_val();
    Args.push_back(Table);
  }
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
    Tape = threadArea(B, Table, Thread, Layout);
    if (Role == RegionRole::Augmented)
      makePrivateShadows(B, Table, Tape, Thread, Layout, Args, Call);
    Args.push_back(Tape);
    // The team's counter for critical sections' tickets, while the body runs.
    Value *TurnSlot = B.CreateThreadLocalAddress(Runtime.teamTurnOfThread());
    Value *Outer = B.CreateLoad(Omp.Ptr, TurnSlot);
    B.CreateStore(at(B, Table, 16), TurnSlot);
    CallInst *Result = B.CreateCall(&Callee, Args);
    B.CreateStore(Outer, TurnSlot);
    if (Sum)
      accumulateIntoMemory(B, Sum, Result, Align(8), /*Atomic=*/true);
    if (Role == RegionRole::Adjoint) {
      B.CreateCall(Runtime.tapeFree(), {Tape});
      Value *Gtid = B.CreateLoad(Omp.I32, Entry->getArg(0));
      sumPrivateShadows(B, Table, Tape, Thread, Threads, Gtid,
                        parallelRegionLocation(Call), Layout);
    }
  } else {
    B.CreateCall(&Callee, Args);
  }
  B.CreateRetVoid();
  return Entry;
}

void RegionForker::fork(CallBase &Call) {
  RegionRole Role = parallelRegionRole(Call);
  Value *Loc = parallelRegionLocation(Call);
  IRBuilder<> B(&Call);
  LLVMContext &C = M.getContext();
  bool Taped = Role == RegionRole::Augmented || Role == RegionRole::Adjoint;
  unsigned First = Role == RegionRole::Adjoint ? 0 : RegionThreadIdParams;
  unsigned End = Call.arg_size() - (Taped ? 1 : 0);
  SmallVector<Value *, 8> Packed(Call.arg_begin() + First,
                                 Call.arg_begin() + End);
  Value *Table = nullptr, *Dynamic = nullptr;
  TableLayout Layout = layoutOf(Call);
  if (Role == RegionRole::Augmented) {
    Value *Capacity = B.CreateCall(Omp.maxThreads());
    if (Value *Requested = requestedThreads(Call))
      Capacity = B.CreateBinaryIntrinsic(Intrinsic::smax, Capacity, Requested);
    Capacity = B.CreateZExt(Capacity, B.getInt64Ty());
    Value *Bytes =
        B.CreateAdd(B.getInt64(Layout.header()),
                    B.CreateMul(Capacity, B.getInt64(Layout.perThread())));
    Table =
        B.CreateCall(Runtime.calloc(), {B.getInt64(1), Bytes}, "ad.omp.tapes");
    B.CreateStore(Capacity, B.CreateConstGEP1_64(B.getInt8Ty(), Table, 8));
    // What each thread's private shadows cover, from the region's captured
    // values as they are now.
    RegionShadows Shadows = parallelRegionShadows(Call);
    SmallVector<Value *, 8> Primals(Call.args());
    for (auto [P, Private] : enumerate(Layout.Privates)) {
      Value *Header = at(B, Table, Layout.privateHeader(P));
      Value *Low = emitRegionBound(Private.Low, B, Primals);
      Value *High = emitRegionBound(Private.High, B, Primals);
      // The shadow the buffers are summed into (it holds still during the
      // region: the region only reads the captured variable).
      Value *Shadow = Call.getArgOperand(shadowIndex(Shadows, Private.Arg));
      if (!Private.Direct)
        Shadow = B.CreateLoad(Omp.Ptr, Shadow);
      B.CreateStore(Shadow, Header);
      B.CreateStore(Low, at(B, Header, 8));
      B.CreateStore(B.CreateSub(High, Low), at(B, Header, 16));
      B.CreateStore(B.CreateZExt(inPlaceForThreadZero(B, Call, Private, Shadow,
                                                      Low, High),
                                 B.getInt64Ty()),
                    at(B, Header, 24));
    }
    Value *Record = B.CreateCall(Runtime.tapePush(),
                                 {Call.getArgOperand(End), B.getInt64(8)});
    B.CreateStore(Table, Record);
  } else if (Role == RegionRole::Adjoint) {
    Value *Record = B.CreateCall(Runtime.tapePop(),
                                 {Call.getArgOperand(End), B.getInt64(8)});
    Table = B.CreateLoad(Omp.Ptr, Record, "ad.omp.tapes");
    Value *Threads =
        B.CreateTrunc(B.CreateLoad(B.getInt64Ty(), Table), Omp.I32);
    // Exactly that many: with OMP_DYNAMIC libomp may give fewer, so the
    // adjustment is off for this fork (it is the calling thread's setting).
    Dynamic = B.CreateCall(M.getOrInsertFunction("omp_get_dynamic", Omp.I32));
    B.CreateCall(M.getOrInsertFunction("omp_set_dynamic", Omp.Void, Omp.I32),
                 {B.getInt32(0)});
    B.CreateCall(
        Omp.pushNumThreads(),
        {Loc, B.CreateCall(Runtime.ompGlobalThreadNum(), {Loc}), Threads});
  }
  AllocaInst *Sum = nullptr;
  if (Role == RegionRole::Adjoint && !Call.getType()->isVoidTy()) {
    Function &Caller = *Call.getFunction();
    Sum = new AllocaInst(Call.getType(), M.getDataLayout().getAllocaAddrSpace(),
                         "ad.omp.sum",
                         Caller.getEntryBlock().getFirstInsertionPt());
    Sum->setAlignment(Align(8));
    B.CreateStore(Constant::getNullValue(Call.getType()), Sum);
    Packed.push_back(Sum);
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
               {Loc, B.getInt32(1), teamEntry(Call, Role, Pack, Layout), Slot});
  if (Sum)
    Call.replaceAllUsesWith(B.CreateLoad(Call.getType(), Sum));
  if (Role == RegionRole::Adjoint) {
    B.CreateCall(M.getOrInsertFunction("omp_set_dynamic", Omp.Void, Omp.I32),
                 {Dynamic});
    B.CreateCall(M.getOrInsertFunction("free", Omp.Void, Omp.Ptr), {Table});
  }
  Call.eraseFromParent();
}

} // namespace

void forkParallelRegions(SmallVectorImpl<Function *> &Functions,
                         RuntimeFunctions &Runtime, DiagnosticReporter &Diag,
                         FunctionAnalysisManager &FAM) {
  if (Functions.empty())
    return;
  RegionForker Forker(*Functions.front()->getParent(), Runtime, FAM);
  for (Function *F : Functions) {
    SmallVector<CallBase *, 4> Regions;
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && isParallelRegionCall(*Call))
        Regions.push_back(Call);
    for (CallBase *Call : Regions) {
      // Only an adjoint returns something: the adjoints of the values the
      // region gets by value.
      if ((!Call->getType()->isVoidTy() &&
           parallelRegionRole(*Call) != RegionRole::Adjoint) ||
          !Call->getCalledFunction()) {
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
