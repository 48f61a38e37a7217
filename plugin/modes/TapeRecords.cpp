//===- TapeRecords.cpp - What each block keeps on the tape ----------------===//
//
// Records are laid out while the reverse blocks are built, and emitted after:
// a field's offset is known when it is first read, the record's size only
// when its reverse block is complete. See TapeRecords.h.
//
//===----------------------------------------------------------------------===//
#include "modes/TapeRecords.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace ad {

/// Byte-packed records where misaligned 8-byte accesses are as fast as
/// aligned ones; 4-byte aligned records elsewhere.
static Align recordAlignFor(Function &F, FunctionAnalysisManager &FAM) {
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  unsigned Fast = 0;
  if (TTI.allowsMisalignedMemoryAccesses(F.getContext(), 64,
                                         /*AddressSpace=*/0, Align(1), &Fast) &&
      Fast)
    return Align(1);
  return Align(4);
}

TapeRecords::TapeRecords(ReverseState &S)
    : S(S), RecordAlign(recordAlignFor(*S.Primal, S.Ctx.FAM)) {}

TapeRecords::~TapeRecords() {
  for (auto &[BB, R] : Records)
    delete R;
}

void TapeRecords::createRecords() {
  for (BasicBlock *BB : S.LiveBlocks)
    Records[BB] = new BlockRecord();
}

Value *TapeRecords::loaded(BasicBlock *BB, Value *Fwd) const {
  return Records.lookup(BB)->Loaded.lookup(Fwd);
}

Value *TapeRecords::read(BasicBlock *RecBlock, Value *Fwd) {
  BlockRecord &R = *Records[RecBlock];
  if (Value *V = R.Loaded.lookup(Fwd))
    return V;
  ADContext &Ctx = S.Ctx;
  IRBuilder<> PB(Ctx.M.getContext());
  BasicBlock *RB = S.RevBlocks[RecBlock];
  if (!R.Pop) {
    PB.SetInsertPoint(RB, RB->begin());
    R.Pop = PB.CreateCall(Ctx.Runtime.tapePop(), {S.TapeRev, PB.getInt64(0)},
                          "record");
    // Values placed before the record existed stay above what follows.
    if (!R.LastLoad)
      R.LastLoad = R.Pop;
  }
  const DataLayout &DL = Ctx.M.getDataLayout();
  Align FieldAlign = fieldAlign(DL, Fwd->getType());
  uint64_t Offset = alignTo(R.Size, FieldAlign);
  R.Size = Offset + DL.getTypeStoreSize(Fwd->getType());
  PB.SetInsertPoint(RB, std::next(R.LastLoad->getIterator()));
  LoadInst *L = PB.CreateAlignedLoad(
      Fwd->getType(),
      PB.CreateConstInBoundsGEP1_64(PB.getInt8Ty(), R.Pop, Offset), FieldAlign,
      Fwd->getName() + ".saved");
  R.LastLoad = L;
  R.Fields.push_back({Fwd, Offset});
  R.Loaded[Fwd] = L;
  return L;
}

Instruction *TapeRecords::place(BasicBlock *BB, Instruction *C, Value *Fwd) {
  // With the record's loads at the top of the reverse block, so that every
  // use in the block is dominated; later reads of Fwd in this block reuse it.
  BlockRecord &R = *Records[BB];
  if (R.LastLoad)
    C->insertAfter(R.LastLoad->getIterator());
  else
    C->insertBefore(S.RevBlocks[BB]->getFirstInsertionPt());
  R.LastLoad = C;
  R.Loaded[Fwd] = C;
  return C;
}

Align TapeRecords::fieldAlign(const DataLayout &DL, Type *T) const {
  // A float takes 4 bytes, a flag 1: a loop's record is often just that.
  return std::min(DL.getABITypeAlign(T), RecordAlign);
}

bool TapeRecords::recordOnStack(BasicBlock *BB, const BlockRecord &R) {
  if (!S.Combined)
    return false; // The adjoint is another call: the tape carries it there.
  // A pointer stays on the tape. Through a stack slot, which the canonical
  // primal of a derivative of this gradient (nested) promotes, a shadow
  // reaches the __ad_memcpy_adjoint.<type> call of the reverse sweep as
  // the very value the forward sweep copies on realloc; the type analysis
  // reads that callee's body, whose stride is a parameter, as doubles at
  // every byte offset, and the copy's bytes are then unknown
  // (test/Integration/n_through_helpers.c). A popped pointer is another
  // value.
  if (any_of(R.Fields,
             [](auto &F) { return F.first->getType()->isPtrOrPtrVectorTy(); }))
    return false;
  if (!OnCycles) {
    // LoopInfo misses irreducible cycles, whose blocks may run many times.
    OnCycles.emplace();
    for (scc_iterator<Function *> I = scc_begin(S.Primal); !I.isAtEnd(); ++I)
      if (I.hasCycle())
        OnCycles->insert_range(*I);
  }
  return !OnCycles->contains(BB);
}

void TapeRecords::emitStackRecord(BlockRecord &R, BasicBlock *Fwd) {
  IRBuilder<> &B = S.B;
  BasicBlock &Entry = S.FwdF->getEntryBlock();
  DenseMap<uint64_t, AllocaInst *> Slots;
  for (auto &[V, Offset] : R.Fields) {
    B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
    AllocaInst *Slot =
        B.CreateAlloca(V->getType(), nullptr, V->getName() + ".record");
    Slots[Offset] = Slot;
    B.SetInsertPoint(Fwd->getTerminator());
    B.CreateAlignedStore(V, Slot, Slot->getAlign());
  }
  // The record's loads read Pop + offset (Pop itself at offset 0).
  SmallVector<Instruction *, 8> Dead;
  auto Redirect = [&](Instruction *Addr, uint64_t Offset) {
    for (User *U : make_early_inc_range(Addr->users())) {
      auto *L = cast<LoadInst>(U);
      AllocaInst *Slot = Slots.lookup(Offset);
      L->setOperand(L->getPointerOperandIndex(), Slot);
      L->setAlignment(Slot->getAlign());
    }
    Dead.push_back(Addr);
  };
  const DataLayout &DL = S.Ctx.M.getDataLayout();
  for (User *U : make_early_inc_range(R.Pop->users())) {
    auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (!GEP) {
      Redirect(cast<Instruction>(U), 0);
      continue;
    }
    APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    bool Constant = GEP->accumulateConstantOffset(DL, Offset);
    assert(Constant && "a record field at a variable offset");
    (void)Constant;
    Redirect(GEP, Offset.getZExtValue());
  }
  for (Instruction *I : Dead)
    if (I != R.Pop)
      I->eraseFromParent();
  R.Pop->eraseFromParent();
  R.Pop = nullptr;
  R.OnStack = true;
}

void TapeRecords::emitRecords() {
  IRBuilder<> &B = S.B;
  const DataLayout &DL = S.Ctx.M.getDataLayout();
  for (BasicBlock *BB : S.LiveBlocks) {
    BlockRecord &R = *Records[BB];
    if (!R.Pop)
      continue;
    if (recordOnStack(BB, R)) {
      emitStackRecord(R, cast<BasicBlock>(S.VMap[BB]));
      continue;
    }
    // Whole records stay RecordAlign-aligned; fields inside are packed.
    uint64_t Size = alignTo(R.Size, RecordAlign.value());
    R.Pop->setArgOperand(1, B.getInt64(Size));
    auto *CloneBB = cast<BasicBlock>(S.VMap[BB]);
    B.SetInsertPoint(CloneBB->getTerminator());
    CallInst *Rec = B.CreateCall(S.Ctx.Runtime.tapePush(),
                                 {S.TapeFwd, B.getInt64(Size)}, "record");
    R.Push = Rec;
    for (auto &[V, Offset] : R.Fields)
      B.CreateAlignedStore(
          V, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, Offset),
          fieldAlign(DL, V->getType()));
  }
}

/// Whether \p BB runs on every iteration of its innermost loop \p L that
/// completes (so at least as often as L's header, less one).
static bool runsEveryIteration(BasicBlock *BB, Loop *L, DominatorTree &DT) {
  BasicBlock *Latch = L->getLoopLatch();
  return Latch && DT.dominates(BB, Latch);
}

/// A count the canonical primal computes (TapeReservation.h), as the forward
/// sweep has it: a constant as it is, anything else its clone.
static Value *countInForward(ReverseState &S, Value *Primal) {
  if (!Primal || isa<Constant>(Primal))
    return Primal;
  return S.VMap.lookup(Primal);
}

/// \p Sum plus \p Add, saturating; Add where Sum is null.
static Value *addBytes(IRBuilderBase &B, Value *Sum, Value *Add) {
  return Sum ? B.CreateBinaryIntrinsic(Intrinsic::uadd_sat, Sum, Add, nullptr,
                                       "tape.bytes")
             : Add;
}

void TapeRecords::reserveTape() {
  // Bytes to reserve, by where (in the primal) the count is known. Records
  // outside loops are pushed at most once each per call: they join the
  // reservation at the entry and every other, so that the last of them does
  // not double a buffer reserved to the byte. Records in a loop count where
  // their block runs on every iteration, or in branches on conditions that
  // do not change in the nest (TapeReservation.h): those are sure to be
  // pushed. A record in a branch taken now and then may be pushed once an
  // iteration: the reservation adds that bound, but no more than an eighth
  // of the tape with the sure bytes (what is on it and what the nest will
  // surely push), so that the nest's last records do not double a buffer
  // reserved to the byte, and the reservation stays within 9/8 of what is
  // recorded. Sums and products saturate (see TapeReservation.h);
  // __ad_tape_reserve ignores what cannot be allocated.
  IRBuilder<> &B = S.B;
  Instruction *Entry = S.Primal->getEntryBlock().getTerminator();
  struct Bytes {
    Value *Sure = nullptr, *Maybe = nullptr;
  };
  MapVector<Instruction *, Bytes> ByAt;
  uint64_t Straight = 0;
  for (BasicBlock *BB : S.LiveBlocks) {
    BlockRecord &R = *Records[BB];
    if (!R.Pop || !R.Size)
      continue; // Nothing, or nothing on the tape.
    uint64_t Size = alignTo(R.Size, RecordAlign.value());
    Loop *L = S.LI.getLoopFor(BB);
    if (!L) {
      Straight = SaturatingAdd(Straight, Size);
      continue;
    }
    auto It = S.Bounds.find(L->getHeader());
    if (It == S.Bounds.end() || !It->second.Iterations)
      continue; // Pushes grow the tape as they go.
    const IterationBound &Bound = It->second;
    auto *At = cast_or_null<Instruction>(S.VMap.lookup(Bound.At));
    Value *Runs = runsEveryIteration(BB, L, S.DT) ? Bound.runsOf(BB)
                                                  : Bound.InBranches.lookup(BB);
    bool Sure = Runs;
    if (!Sure)
      Runs = Bound.Iterations; // At most once an iteration.
    Runs = countInForward(S, Runs);
    if (!At || !Runs)
      continue;
    B.SetInsertPoint(At);
    Value *Add = saturatingMul(B, Runs, B.getInt64(Size), "tape.bytes");
    Bytes &Sum = ByAt[Bound.At];
    (Sure ? Sum.Sure : Sum.Maybe) =
        addBytes(B, Sure ? Sum.Sure : Sum.Maybe, Add);
  }
  if (ByAt.empty())
    return;
  if (Straight && !S.VMap.lookup(Entry))
    return;
  if (Straight)
    ByAt[Entry]; // Reserved at the entry even where no nest is.
  for (auto &[PrimalAt, Sum] : ByAt) {
    B.SetInsertPoint(cast<Instruction>(S.VMap.lookup(PrimalAt)));
    // Records outside loops may come after any nest: every reservation
    // holds them (a reservation asks for room past what is pushed, so those
    // pushed before a later nest are counted twice: a few bytes).
    if (Straight)
      Sum.Sure = addBytes(B, Sum.Sure, B.getInt64(Straight));
    if (!Sum.Sure)
      continue;
    Value *Total = Sum.Sure;
    if (Sum.Maybe) {
      Value *Size = B.CreateLoad(
          B.getInt64Ty(),
          B.CreateStructGEP(S.Ctx.Runtime.tapeType(), S.TapeFwd, 1),
          "tape.size");
      Value *Budget = B.CreateLShr(addBytes(B, Size, Total), 3);
      Total =
          addBytes(B, Total,
                   B.CreateBinaryIntrinsic(Intrinsic::umin, Sum.Maybe, Budget));
    }
    B.CreateCall(S.Ctx.Runtime.tapeReserve(), {S.TapeFwd, Total});
  }
}

/// Whether \p L calls nothing that may push records of its own: only
/// intrinsics and the math library (whose results a record may hold).
static bool callsNothingThatRecords(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(Call) && !isLibraryMathCall(*Call))
          return false;
  return true;
}

void TapeRecords::checkCapacityPerEntry() {
  IRBuilder<> &B = S.B;
  for (Loop *L : S.LI.getLoopsInPreorder()) {
    auto It = S.Bounds.find(L->getHeader());
    if (It == S.Bounds.end() || !It->second.PerEntry ||
        !callsNothingThatRecords(*L))
      continue;
    const IterationBound &Bound = It->second;
    auto *Preheader =
        dyn_cast_or_null<BasicBlock>(S.VMap.lookup(L->getLoopPreheader()));
    if (!Preheader)
      continue;
    // Every record of the loop must be pushed here, at most as often as
    // counted: a record in a branch would take room without counting.
    SmallVector<std::pair<CallInst *, Value *>, 4> Pushes; // (push, runs)
    bool Counted = true;
    for (BasicBlock *BB : L->blocks()) {
      auto Found = Records.find(BB);
      if (Found == Records.end() || !Found->second->Push)
        continue;
      Value *Runs = countInForward(S, Bound.runsPerEntry(BB));
      Counted &= Runs && runsEveryIteration(BB, L, S.DT);
      Pushes.push_back({Found->second->Push, Runs});
    }
    if (!Counted || Pushes.empty())
      continue;
    B.SetInsertPoint(Preheader->getTerminator());
    Value *Bytes = nullptr;
    for (auto [Push, Runs] : Pushes)
      Bytes = addBytes(
          B, Bytes,
          saturatingMul(B, Runs, Push->getArgOperand(1), "tape.bytes"));
    B.CreateCall(S.Ctx.Runtime.tapeEnsure(), {S.TapeFwd, Bytes});
    for (auto [Push, Runs] : Pushes)
      Push->setCalledFunction(S.Ctx.Runtime.tapePushUnchecked());
  }
}

void TapeRecords::dropUnusedTape() {
  auto *Tape = cast<AllocaInst>(S.TapeFwd);
  SmallVector<Instruction *, 2> Users;
  for (User *U : Tape->users()) {
    auto *I = cast<Instruction>(U);
    auto *Call = dyn_cast<CallInst>(I);
    bool IsInit = isa<StoreInst>(I) && I->getOperand(1) == Tape;
    bool IsFree = Call && Call->getCalledFunction() == S.Ctx.Runtime.tapeFree();
    if (!IsInit && !IsFree)
      return;
    Users.push_back(I);
  }
  for (Instruction *I : Users)
    I->eraseFromParent();
  Tape->eraseFromParent();
}

void TapeRecords::remarkTape(unsigned Recomputed) {
  // Where the memory goes: bytes recorded once per call, and per iteration
  // of each loop that records anything, so a user can see what is cached.
  // A versioned function (ReloadVersioning.h) reports its two copies apart.
  const DenseSet<const BasicBlock *> &Checked =
      S.Ctx.Cache->checkedCopy(S.Primal);
  struct Usage {
    uint64_t PerCall = 0;
    MapVector<Loop *, uint64_t> PerIteration;
  } Plain, InChecked;
  for (BasicBlock *BB : S.LiveBlocks) {
    BlockRecord &R = *Records[BB];
    if (!holdsBytes(R))
      continue;
    Usage &U = Checked.contains(BB) ? InChecked : Plain;
    uint64_t Size = alignTo(R.Size, RecordAlign.value());
    if (Loop *L = S.LI.getLoopFor(BB))
      U.PerIteration[L] += Size;
    else
      U.PerCall += Size;
  }
  unsigned CountedLoops = 0, Loops = 0;
  for (Loop *L : S.LI.getLoopsInPreorder())
    if (!Checked.contains(L->getHeader())) {
      ++Loops;
      CountedLoops += S.Counted.count(L->getHeader());
    }
  Function &User = *S.Sig.Primal;
  OptimizationRemarkEmitter ORE(&User);
  ORE.emit([&] {
    OptimizationRemark R("ad", "Tape", &User);
    auto Describe = [&](const Usage &U) {
      R << ore::NV("BytesPerCall", U.PerCall) << " bytes per call";
      for (auto &[L, Bytes] : U.PerIteration) {
        R << ", " << ore::NV("BytesPerIteration", Bytes)
          << " bytes per iteration of the loop";
        if (DebugLoc DL = L->getStartLoc())
          R << " at line " << ore::NV("Line", DL.getLine());
        else
          R << " '" << L->getHeader()->getName() << "'";
      }
    };
    R << (S.Combined ? "gradient" : "split derivative") << " of '"
      << ore::NV("Function", demangle(User.getName())) << "' caches ";
    Describe(Plain);
    if (!Checked.empty()) {
      R << " (where its run-time checks pass: ";
      Describe(InChecked);
      R << ")";
    }
    R << "; recomputes " << ore::NV("Recomputed", Recomputed)
      << " values in the reverse sweep; "
      << ore::NV("CountedLoops", CountedLoops) << " of "
      << ore::NV("Loops", Loops) << " loops reversed by counting";
    return R;
  });
}

/// What computed \p V, for a remark: "load", "fmul", "call to exp", a
/// block's predecessor index, an argument.
static void describeField(OptimizationRemarkAnalysis &R, const Value *V) {
  if (auto *Call = dyn_cast<CallBase>(V)) {
    const Function *F = Call->getCalledFunction();
    R << "call to " << (F ? F->getName() : StringRef("a pointer"));
  } else if (auto *I = dyn_cast<Instruction>(V)) {
    R << I->getOpcodeName();
  } else if (auto *A = dyn_cast<Argument>(V)) {
    R << "argument " << ore::NV("Argument", A->getArgNo());
    return;
  } else {
    R << "a value";
    return;
  }
  if (const DebugLoc &DL = cast<Instruction>(V)->getDebugLoc())
    R << " at line " << ore::NV("FieldLine", DL.getLine()) << ":"
      << ore::NV("FieldColumn", DL.getCol());
}

void TapeRecords::remarkFields() {
  const DenseSet<const BasicBlock *> &Checked =
      S.Ctx.Cache->checkedCopy(S.Primal);
  const DataLayout &DL = S.Ctx.M.getDataLayout();
  Function &User = *S.Sig.Primal;
  OptimizationRemarkEmitter ORE(&User);
  for (BasicBlock *BB : S.LiveBlocks) {
    BlockRecord &Rec = *Records[BB];
    Loop *L = S.LI.getLoopFor(BB);
    if (!holdsBytes(Rec) || !L)
      continue;
    for (auto &[Fwd, Offset] : Rec.Fields)
      ORE.emit([&] {
        OptimizationRemarkAnalysis R("ad", "TapeField", &User);
        R << "per iteration of the loop";
        if (DebugLoc Loc = L->getStartLoc())
          R << " at line " << ore::NV("Line", Loc.getLine());
        if (Checked.contains(BB))
          R << " (where its run-time checks pass)";
        R << ", the tape holds "
          << ore::NV("Bytes",
                     DL.getTypeStoreSize(Fwd->getType()).getFixedValue())
          << " bytes of ";
        describeField(R, Fwd);
        return R;
      });
  }
}

} // namespace ad
