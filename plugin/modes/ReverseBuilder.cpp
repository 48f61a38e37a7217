//===- ReverseBuilder.cpp - Reverse mode: structure and forward sweep
//-------===//
#include "modes/ReverseBuilder.h"
#include "analysis/TypeAnalysis.h"
#include "modes/ConstantShadows.h"
#include "core/IRHelpers.h"
#include "primal/Preprocess.h"
#include "modes/StoredPointers.h"
#include "modes/UnsupportedConstructs.h"
#include "rules/ShadowErrors.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace ad {

/// Byte-packed records where misaligned 8-byte accesses are as fast as
/// aligned ones; 4-byte aligned records elsewhere.
static Align recordAlignFor(Function &F, FunctionAnalysisManager &FAM) {
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  unsigned Fast = 0;
  if (TTI.allowsMisalignedMemoryAccesses(F.getContext(), 64,
                                         /*AddressSpace=*/0, Align(1),
                                         &Fast) &&
      Fast)
    return Align(1);
  return Align(4);
}

ReverseBuilder::ReverseBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                               Function *Primal, Function *Forward,
                               Function *Reverse)
    : Ctx(Ctx), Sig(Sig), Primal(Primal), FwdF(Forward), RevF(Reverse),
      Combined(Forward == Reverse), AA(*Primal, Sig.Args, Ctx.Types, Ctx.Globals),
      Facts(AA, Ctx.Types), DT(*Primal), LI(DT), Counted(Ctx.Cache->countedLoops(Primal)),
      Bounds(Ctx.Cache->iterationBounds(Primal)), B(Ctx.M.getContext()) {
  RecordAlign = recordAlignFor(*Primal, Ctx.FAM);
  for (auto &[Header, CL] : Counted)
    for (const Recurrence &R : CL.IVs)
      Inductions[R.Phi] = &R;
}

ReverseBuilder::~ReverseBuilder() {
  for (auto &[BB, R] : Records)
    delete R;
}

bool ReverseBuilder::build() {
  if (!checkSupportedConstructs(Ctx, AA, *Primal))
    return false;
  for (BasicBlock &BB : *Primal)
    if (isa<ReturnInst>(BB.getTerminator())) {
      if (ReturnBlock) {
        Ctx.Diag.error(*Primal, "function has several return blocks",
                       "this is an internal error; please report it");
        return false;
      }
      ReturnBlock = &BB;
    }
  if (!ReturnBlock || !DT.isReachableFromEntry(ReturnBlock)) {
    Ctx.Diag.error(*Primal, "function never returns",
                   "differentiate a function that returns");
    return false;
  }
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(Primal))
    LiveBlocks.push_back(BB);
  writers(); // invariantLoad reads them.

  if (!cloneForward())
    return false;
  createReverseBlocks();
  for (BasicBlock *BB : LiveBlocks)
    if (!buildReverseBlock(BB))
      return false;
  initInvariantSlots();
  emitReverseEntryAndExit();
  emitRecords();
  reserveTape();
  if (Combined)
    dropUnusedTape();
  remarkTape();
  return true;
}

void ReverseBuilder::remarkTape() {
  // Where the memory goes: bytes recorded once per call, and per iteration
  // of each loop that records anything, so a user can see what is cached.
  // A versioned function (ReloadVersioning.h) reports its two copies apart.
  const DenseSet<const BasicBlock *> &Checked =
      Ctx.Cache->checkedCopy(Primal);
  struct Usage {
    uint64_t PerCall = 0;
    MapVector<Loop *, uint64_t> PerIteration;
  } Plain, InChecked;
  for (BasicBlock *BB : LiveBlocks) {
    BlockRecord &R = *Records[BB];
    if (!R.Pop || !R.Size)
      continue;
    Usage &U = Checked.contains(BB) ? InChecked : Plain;
    uint64_t Size = alignTo(R.Size, RecordAlign.value());
    if (Loop *L = LI.getLoopFor(BB))
      U.PerIteration[L] += Size;
    else
      U.PerCall += Size;
  }
  unsigned CountedLoops = 0, Loops = 0;
  for (Loop *L : LI.getLoopsInPreorder())
    if (!Checked.contains(L->getHeader())) {
      ++Loops;
      CountedLoops += Counted.count(L->getHeader());
    }
  Function &User = *Sig.Primal;
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
    R << (Combined ? "gradient" : "split derivative") << " of '"
      << ore::NV("Function", User.getName()) << "' caches ";
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

void ReverseBuilder::dropUnusedTape() {
  // Straight-line code keeps nothing: no tape to create and free.
  auto *Tape = cast<AllocaInst>(TapeFwd);
  SmallVector<Instruction *, 2> Users;
  for (User *U : Tape->users()) {
    auto *I = cast<Instruction>(U);
    auto *Call = dyn_cast<CallInst>(I);
    bool IsInit = isa<StoreInst>(I) && I->getOperand(1) == Tape;
    bool IsFree = Call && Call->getCalledFunction() == Ctx.Runtime.tapeFree();
    if (!IsInit && !IsFree)
      return;
    Users.push_back(I);
  }
  for (Instruction *I : Users)
    I->eraseFromParent();
  Tape->eraseFromParent();
}

// --- Forward sweep
// ------------------------------------------------------------

bool ReverseBuilder::cloneForward() {
  unsigned N = Primal->arg_size();
  for (unsigned I = 0; I < N; ++I)
    VMap[Primal->getArg(I)] = FwdF->getArg(I);
  unsigned Next = N;
  for (unsigned I = 0; I < N; ++I)
    if (Sig.Args[I] == Activity::Shadowed)
      Shadows[Primal->getArg(I)] = FwdF->getArg(Next++);

  AttributeList Saved = FwdF->getAttributes();
  SmallVector<ReturnInst *, 1> Returns;
  CloneFunctionInto(FwdF, Primal, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  restoreDerivativeAttributes(*FwdF, Saved);

  BasicBlock &Entry = FwdF->getEntryBlock();
  if (Combined) {
    B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
    AllocaInst *Tape = B.CreateAlloca(Ctx.Runtime.tapeType(), nullptr, "tape");
    B.CreateStore(Constant::getNullValue(Ctx.Runtime.tapeType()), Tape);
    TapeFwd = TapeRev = Tape;
    SlotInsertPt = Tape;
  } else {
    TapeFwd = FwdF->getArg(FwdF->arg_size() - 1);
    TapeRev = RevF->getArg(RevF->arg_size() - 1);
  }

  for (BasicBlock *BB : LiveBlocks)
    for (PHINode &Phi : BB->phis()) {
      if (!AA.hasShadow(&Phi) && !AA.movesPointerBits(&Phi))
        continue;
      auto *ClonePhi = cast<PHINode>(VMap[&Phi]);
      Shadows[&Phi] = PHINode::Create(Phi.getType(), Phi.getNumIncomingValues(),
                                      Phi.getName() + ".shadow",
                                      ClonePhi->getParent()->begin());
      PendingShadowPhis.push_back(&Phi);
    }
  for (BasicBlock *BB : LiveBlocks)
    for (Instruction &I : *BB)
      if (!isa<PHINode>(I) && !forwardVisit(I))
        return false;
  if (!finishShadowPhis())
    return false;
  createPredecessorIndices();

  // The augmented forward sweep returns the primal result (and its shadow);
  // the combined one continues into the reverse sweep instead (see
  // emitReverseEntryAndExit).
  if (!Combined && Sig.ReturnActive && isPointerLike(Primal->getReturnType())) {
    auto *Ret = cast<ReturnInst>(VMap[ReturnBlock->getTerminator()]);
    B.SetInsertPoint(Ret);
    Value *V = ReturnBlock->getTerminator()->getOperand(0);
    Value *S = shadowInForward(V, ReturnBlock->getTerminator());
    if (!S)
      return false;
    Value *Pair = PoisonValue::get(FwdF->getReturnType());
    Pair = B.CreateInsertValue(Pair, cloneOf(V), 0);
    Pair = B.CreateInsertValue(Pair, S, 1);
    B.CreateRet(Pair);
    Ret->eraseFromParent();
  }
  return true;
}

Value *ReverseBuilder::shadowInForward(Value *Orig, Instruction *User) {
  if (Value *S = Shadows.lookup(Orig))
    return S;
  if (auto *C = dyn_cast<Constant>(Orig))
    if (Constant *S = shadowOfConstant(Ctx.M, C, /*ForReverse=*/true))
      return S;
  Ctx.Diag.error(User,
                 "pointer " + Ctx.Diag.describe(*Orig) +
                     " may point to differentiated memory but has no shadow",
                 "pass differentiated pointers as __ad_dup arguments, not "
                 "through globals or integers");
  return nullptr;
}

bool ReverseBuilder::forwardShadowCopy(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  Instruction *S = Clone->clone();
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    Value *Op = I.getOperand(K);
    if (!isPointerLike(Op->getType()) && !AA.movesPointerBits(Op))
      continue;
    if (isa<ConstantInt>(Op)) { // Pointer bits: no pointer, no shadow.
      S->setOperand(K, Constant::getNullValue(Op->getType()));
      continue;
    }
    Value *Shadow = shadowInForward(Op, &I);
    if (!Shadow)
      return false;
    S->setOperand(K, Shadow);
  }
  S->setName(I.getName() + ".shadow");
  S->insertAfter(Clone->getIterator());
  Shadows[&I] = S;
  return true;
}

bool ReverseBuilder::forwardVisit(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  if (!I.isTerminator())
    B.SetInsertPoint(Clone->getNextNode());

  if (auto *Call = dyn_cast<CallBase>(&I))
    return forwardCall(*Call);

  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *Ptr = SI->getPointerOperand(), *Val = SI->getValueOperand();
    bool ValActive = AA.isVaried(Val) || AA.hasShadow(Val);
    if (!AA.hasShadow(Ptr)) {
      if (!ValActive)
        return true;
      reportStoreWithoutShadow(Ctx.Diag, I);
      return false;
    }
    bool PointerBits = AA.movesPointerBits(Val);
    if (!isPointerLike(Val->getType()) && !PointerBits)
      return true;
    // A pointer stored in differentiated memory (or its bits, copied as an
    // integer): its shadow goes to the same place in the shadow memory.
    Value *SP = shadowInForward(Ptr, &I);
    Value *SV = AA.hasShadow(Val) || isa<Constant>(Val) || PointerBits
                    ? shadowInForward(Val, &I)
                    : shadowForUnshadowedPointer(Ctx, Val, &I);
    if (!SP || !SV)
      return false;
    B.CreateAlignedStore(SV, SP, SI->getAlign(), SI->isVolatile());
    return true;
  }

  if (!AA.hasShadow(&I) && !AA.movesPointerBits(&I))
    return true;

  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    const DataLayout &DL = Ctx.M.getDataLayout();
    Value *Count =
        B.CreateZExtOrTrunc(cloneOf(AI->getArraySize()), B.getInt64Ty());
    Value *Size = B.CreateMul(
        Count, B.getInt64(DL.getTypeAllocSize(AI->getAllocatedType())));
    if (Combined && AI->isStaticAlloca()) {
      auto *S = cast<AllocaInst>(Clone->clone());
      S->insertAfter(Clone->getIterator());
      S->setName(I.getName() + ".shadow");
      B.CreateMemSet(S, B.getInt8(0), Size, AI->getAlign());
      Shadows[&I] = S;
    } else {
      // The adjoint function outlives the forward sweep's frame.
      Shadows[&I] = B.CreateCall(Ctx.Runtime.calloc(), {B.getInt64(1), Size},
                                 I.getName() + ".shadow");
      HeapShadows.insert(&I);
    }
    return true;
  }

  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Value *SP = shadowInForward(LI->getPointerOperand(), &I);
    if (!SP)
      return false;
    Shadows[&I] =
        B.CreateAlignedLoad(I.getType(), SP, LI->getAlign(), LI->isVolatile(),
                            I.getName() + ".shadow");
    return true;
  }

  if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<SelectInst>(I) ||
      isa<FreezeInst>(I) || isa<ExtractValueInst>(I) || isa<InsertValueInst>(I))
    return forwardShadowCopy(I);

  if (isPointerLike(I.getType())) {
    Ctx.Diag.error(
        &I,
        Twine("cannot compute the shadow of a pointer produced by '") +
            I.getOpcodeName() + "'",
        "compute pointers with ordinary indexing");
    return false;
  }
  return true;
}

bool ReverseBuilder::finishShadowPhis() {
  for (PHINode *Phi : PendingShadowPhis) {
    auto *S = cast<PHINode>(Shadows[Phi]);
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      Value *In = Phi->getIncomingValue(K);
      Value *SIn = Shadows.lookup(In);
      if (!SIn && isa<ConstantInt>(In)) // Pointer bits: no pointer, no shadow.
        SIn = Constant::getNullValue(In->getType());
      if (!SIn)
        if (auto *C = dyn_cast<Constant>(In))
          SIn = shadowOfConstant(Ctx.M, C, /*ForReverse=*/true);
      if (!SIn)
        SIn = shadowForUnshadowedPointer(Ctx, In, Phi);
      if (!SIn)
        return false;
      S->addIncoming(SIn, cast<BasicBlock>(VMap[Phi->getIncomingBlock(K)]));
    }
  }
  return true;
}

void ReverseBuilder::createPredecessorIndices() {
  DenseSet<BasicBlock *> Live(LiveBlocks.begin(), LiveBlocks.end());
  for (BasicBlock *BB : LiveBlocks) {
    SmallVector<BasicBlock *, 2> &P = Preds[BB];
    for (BasicBlock *Pred : predecessors(BB))
      if (Live.count(Pred) && !is_contained(P, Pred))
        P.push_back(Pred);
    if (P.size() < 2)
      continue;
    auto *CloneBB = cast<BasicBlock>(VMap[BB]);
    Type *I32 = Type::getInt32Ty(Ctx.M.getContext());
    PHINode *Idx = PHINode::Create(I32, P.size(), "from", CloneBB->begin());
    for (BasicBlock *ClonePred : predecessors(CloneBB)) {
      unsigned K = 0;
      for (unsigned J = 0; J < P.size(); ++J)
        if (VMap[P[J]] == ClonePred)
          K = J;
      Idx->addIncoming(ConstantInt::get(I32, K), ClonePred);
    }
    PredIndex[BB] = Idx;
  }
}

// --- Reverse sweep structure
// --------------------------------------------------

void ReverseBuilder::createReverseBlocks() {
  LLVMContext &C = Ctx.M.getContext();
  if (!Combined) {
    RevEntry = BasicBlock::Create(C, "entry", RevF);
    B.SetInsertPoint(RevEntry);
    // Slots go before everything; a no-op anchor marks the spot.
    SlotInsertPt = B.CreateAlloca(B.getInt8Ty(), nullptr, "slots.begin");
  }
  for (BasicBlock *BB : LiveBlocks) {
    RevBlocks[BB] = BasicBlock::Create(C, "rev." + BB->getName(), RevF);
    Records[BB] = new BlockRecord();
  }
  RevExit = BasicBlock::Create(C, "rev.exit", RevF);
}

bool ReverseBuilder::buildReverseBlock(BasicBlock *BB) {
  CurBlock = BB;
  B.SetInsertPoint(RevBlocks[BB]);
  for (Instruction &I : reverse(*BB)) {
    if (I.isTerminator() || isa<PHINode>(I))
      continue;
    B.SetInsertPoint(RevBlocks[BB]);
    B.SetCurrentDebugLocation(I.getDebugLoc());
    if (!reverseVisit(I))
      return false;
  }
  B.SetInsertPoint(RevBlocks[BB]);
  B.SetCurrentDebugLocation(DebugLoc());
  emitReverseTerminator(BB);
  return true;
}

void ReverseBuilder::emitReverseTerminator(BasicBlock *BB) {
  // Adjoints of this block's phis, read before any of them is updated:
  // phis execute in parallel.
  SmallVector<std::pair<PHINode *, Value *>, 4> PhiAdjoints;
  for (PHINode &Phi : BB->phis())
    if (AA.isVaried(&Phi))
      PhiAdjoints.push_back({&Phi, takeAdjoint(&Phi)});

  auto EmitEdge = [&](BasicBlock *Pred) {
    for (auto &[Phi, D] : PhiAdjoints)
      addAdjoint(Phi->getIncomingValueForBlock(Pred), D);
    enterCountedLoops(BB, Pred);
    B.CreateBr(RevBlocks[Pred]);
  };

  SmallVector<BasicBlock *, 2> &P = Preds[BB];
  if (P.empty()) {
    B.CreateBr(RevExit);
    return;
  }
  if (auto It = Counted.find(BB); It != Counted.end()) {
    emitCountedHeaderTerminator(It->second, PhiAdjoints);
    return;
  }
  if (P.size() == 1) {
    EmitEdge(P[0]);
    return;
  }
  LLVMContext &C = Ctx.M.getContext();
  if (std::optional<DecidingBranch> D = decidingBranch(BB)) {
    Value *Cond = primalInReverse(D->Cond);
    BasicBlock *Edge[2];
    for (unsigned K = 0; K < 2; ++K)
      Edge[K] = BasicBlock::Create(
          C, "rev.edge." + P[K]->getName() + "." + BB->getName(), RevF);
    B.CreateCondBr(Cond, Edge[D->IfTrue], Edge[D->IfFalse]);
    for (unsigned K = 0; K < 2; ++K) {
      B.SetInsertPoint(Edge[K]);
      EmitEdge(P[K]);
    }
    return;
  }
  if (emitReplayedJoin(BB, EmitEdge))
    return;
  Value *From = fromForward(PredIndex[BB], /*Direct=*/false);
  SmallVector<BasicBlock *, 4> Edges;
  for (BasicBlock *Pred : P)
    Edges.push_back(BasicBlock::Create(
        C, "rev.edge." + Pred->getName() + "." + BB->getName(), RevF));
  SwitchInst *Sw = B.CreateSwitch(From, Edges[0], P.size() - 1);
  for (unsigned K = 1; K < P.size(); ++K)
    Sw->addCase(B.getInt32(K), Edges[K]);
  for (unsigned K = 0; K < P.size(); ++K) {
    B.SetInsertPoint(Edges[K]);
    EmitEdge(P[K]);
  }
}

void ReverseBuilder::emitReverseEntryAndExit() {
  // Where the reverse sweep starts: seed the returned value's adjoint.
  Instruction *PrimalRet = ReturnBlock->getTerminator();
  Value *Seed = nullptr;
  if (Sig.ReturnActive && isDifferentiableType(Primal->getReturnType()))
    Seed = Combined ? RevF->getArg(RevF->arg_size() - 1) : RevF->getArg(0);
  if (Combined) {
    auto *Ret = cast<Instruction>(VMap[PrimalRet]);
    B.SetInsertPoint(Ret);
    if (Seed)
      addAdjoint(PrimalRet->getOperand(0), Seed);
    B.CreateBr(RevBlocks[ReturnBlock]);
    Ret->eraseFromParent();
  } else {
    B.SetInsertPoint(RevEntry);
    if (Seed)
      addAdjoint(PrimalRet->getOperand(0), Seed);
    B.CreateBr(RevBlocks[ReturnBlock]);
  }

  // Where it ends: return the adjoints of the active arguments.
  B.SetInsertPoint(RevExit);
  Value *Result = nullptr;
  Type *RetTy = RevF->getReturnType();
  if (!RetTy->isVoidTy()) {
    Result = PoisonValue::get(RetTy);
    unsigned Field = 0;
    for (auto [Arg, Act] : zip(Primal->args(), Sig.Args))
      if (Act == Activity::Active) {
        // Adding +0.0 turns an untouched accumulator's -0.0 into +0.0.
        Value *D = addPositiveZero(B, takeAdjoint(&Arg));
        Result = B.CreateInsertValue(Result, D, Field++);
      }
  }
  if (Combined)
    B.CreateCall(Ctx.Runtime.tapeFree(), {TapeRev});
  if (Result)
    B.CreateRet(Result);
  else
    B.CreateRetVoid();
}

Align ReverseBuilder::fieldAlign(const DataLayout &DL, Type *T) const {
  // A float takes 4 bytes, a flag 1: a loop's record is often just that.
  return std::min(DL.getABITypeAlign(T), RecordAlign);
}


void ReverseBuilder::emitRecords() {
  const DataLayout &DL = Ctx.M.getDataLayout();
  for (BasicBlock *BB : LiveBlocks) {
    BlockRecord &R = *Records[BB];
    if (!R.Pop)
      continue;
    // Whole records stay RecordAlign-aligned; fields inside are packed.
    uint64_t Size = alignTo(R.Size, RecordAlign.value());
    R.Pop->setArgOperand(1, B.getInt64(Size));
    auto *CloneBB = cast<BasicBlock>(VMap[BB]);
    B.SetInsertPoint(CloneBB->getTerminator());
    Value *Rec = B.CreateCall(Ctx.Runtime.tapePush(),
                              {TapeFwd, B.getInt64(Size)}, "record");
    for (auto &[V, Offset] : R.Fields)
      B.CreateAlignedStore(
          V, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, Offset),
          fieldAlign(DL, V->getType()));
  }
}

void ReverseBuilder::reserveTape() {
  // Bytes to reserve, by where (in the primal) the bound is known. Records
  // outside loops are pushed at most once each per call: they join the
  // reservation at the entry, so that the last of them does not double a
  // buffer reserved to the byte.
  Instruction *Entry = Primal->getEntryBlock().getTerminator();
  MapVector<Instruction *, Value *> Bytes;
  uint64_t Straight = 0;
  for (BasicBlock *BB : LiveBlocks) {
    BlockRecord &R = *Records[BB];
    if (!R.Pop || !R.Size)
      continue;
    uint64_t Size = alignTo(R.Size, RecordAlign.value());
    Loop *L = LI.getLoopFor(BB);
    if (!L) {
      Straight += Size;
      continue;
    }
    auto It = Bounds.find(L->getHeader());
    if (It == Bounds.end())
      continue; // Pushes grow the tape as they go.
    auto *At = cast_or_null<Instruction>(VMap.lookup(It->second.At));
    Value *Iterations = It->second.Iterations;
    if (!isa<Constant>(Iterations))
      Iterations = VMap.lookup(Iterations);
    if (!At || !Iterations)
      continue;
    B.SetInsertPoint(At);
    Value *Add = B.CreateMul(Iterations, B.getInt64(Size), "tape.bytes");
    Value *&Sum = Bytes[It->second.At];
    Sum = Sum ? B.CreateAdd(Sum, Add, "tape.bytes") : Add;
  }
  if (Bytes.empty())
    return;
  if (Straight) {
    auto *At = cast_or_null<Instruction>(VMap.lookup(Entry));
    if (!At)
      return;
    B.SetInsertPoint(At);
    Value *&Sum = Bytes[Entry];
    Sum = Sum ? B.CreateAdd(Sum, B.getInt64(Straight), "tape.bytes")
              : B.getInt64(Straight);
  }
  for (auto &[PrimalAt, Sum] : Bytes) {
    B.SetInsertPoint(cast<Instruction>(VMap.lookup(PrimalAt)));
    B.CreateCall(Ctx.Runtime.tapeReserve(), {TapeFwd, Sum});
  }
}

// --- Adjoint slots ----------------------------------------------------------

AllocaInst *ReverseBuilder::slotFor(Value *Orig) {
  auto [It, Inserted] = Slots.try_emplace(Orig, nullptr);
  if (Inserted) {
    IRBuilder<> SB(SlotInsertPt->getParent(),
                   std::next(SlotInsertPt->getIterator()));
    Type *T = AA.derivativeType(Orig);
    It->second = SB.CreateAlloca(T, nullptr, Orig->getName() + ".adj");
    SB.CreateStore(adjointZero(T), It->second);
  }
  return It->second;
}

AllocaInst *ReverseBuilder::scratchSlot(Type *T, const Twine &Name) {
  IRBuilder<> SB(SlotInsertPt->getParent(),
                 std::next(SlotInsertPt->getIterator()));
  return SB.CreateAlloca(T, nullptr, Name);
}

Value *ReverseBuilder::takeAdjoint(Value *Orig) {
  Type *T = AA.derivativeType(Orig);
  if (!AA.isVaried(Orig))
    return Constant::getNullValue(T);
  AllocaInst *Slot = slotFor(Orig);
  Value *D = B.CreateLoad(T, Slot, Orig->getName() + ".d");
  B.CreateStore(adjointZero(T), Slot);
  return D;
}

void ReverseBuilder::addAdjoint(Value *Orig, Value *Delta) {
  if (!AA.isVaried(Orig) || isa<Constant>(Orig))
    return;
  if (isZeroDerivative(Delta))
    return;
  accumulateIntoSlot(B, slotFor(Orig), Delta);
}

} // namespace ad
