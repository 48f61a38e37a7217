//===- ReverseBuilder.cpp - Reverse mode: orchestration and forward sweep -===//
//
// The order of the work (see ReverseBuilder.h): clone the forward sweep with
// its shadows, build each reverse block by visiting its instructions last to
// first, then what needed every block built first: loop-invariant slots,
// the entry and exit, the records' pushes and the tape's reservation.
//
//===----------------------------------------------------------------------===//
#include "modes/ReverseBuilder.h"
#include "analysis/MemoryEffects.h"
#include "analysis/TypeAnalysis.h"
#include "core/IRHelpers.h"
#include "modes/ConstantShadows.h"
#include "modes/StoredPointers.h"
#include "modes/UnsupportedConstructs.h"
#include "primal/CheckpointLoops.h"
#include "rules/ShadowErrors.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

ReverseState::ReverseState(ADContext &Ctx, const DerivativeSignature &Sig,
                           Function *Primal, Function *Forward,
                           Function *Reverse)
    : Ctx(Ctx), Sig(Sig), Primal(Primal), FwdF(Forward), RevF(Reverse),
      Combined(Forward == Reverse),
      AA(*Primal, Sig.Args, Ctx.Types, Ctx.Globals, Ctx.MessagePassers),
      Facts(AA, Ctx.Types),
      DT(Ctx.FAM.getResult<DominatorTreeAnalysis>(*Primal)),
      LI(Ctx.FAM.getResult<LoopAnalysis>(*Primal)),
      Counted(Ctx.Cache->countedLoops(Primal)),
      Bounds(Ctx.Cache->iterationBounds(Primal)),
      ThreadOwned(
          *Primal, Sig.ThreadIndexedArgs, Sig.InTeam, Sig.PrivateShadowArgs,
          Sig.InTeam ? Ctx.Cache->iterationOwned(Primal).Params | Sig.OwnedArgs
                     : 0,
          Sig.InTeam ? &Ctx.Cache->iterationOwned(Primal).Unplaced : nullptr),
      Cloning(Ctx, AA, VMap, Shadows, /*ForReverse=*/true),
      B(Ctx.M.getContext()) {}

ReverseBuilder::ReverseBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                               Function *Primal, Function *Forward,
                               Function *Reverse)
    : S(Ctx, Sig, Primal, Forward, Reverse), Records(S), Adjoints(S),
      Values(S, Records, Flow, Adjoints), Flow(S, Values, Adjoints) {}

bool ReverseBuilder::build() {
  if (!checkSupportedConstructs(S.Ctx, S.AA, *S.Primal))
    return false;
  if (!checkReducibleControlFlow(S.Ctx, *S.Primal, S.LI))
    return false;
  for (BasicBlock &BB : *S.Primal)
    if (isa<ReturnInst>(BB.getTerminator())) {
      if (S.ReturnBlock) {
        S.Ctx.Diag.error(*S.Primal, "function has several return blocks",
                         "this is an internal error; please report it");
        return false;
      }
      S.ReturnBlock = &BB;
    }
  if (!S.ReturnBlock || !S.DT.isReachableFromEntry(S.ReturnBlock)) {
    S.Ctx.Diag.error(*S.Primal, "function never returns",
                     "differentiate a function that returns");
    return false;
  }
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(S.Primal))
    S.LiveBlocks.push_back(BB);
  Values.writers(); // invariantLoad reads them.

  if (!cloneForward())
    return false;
  Flow.createReverseBlocks();
  Records.createRecords();
  for (BasicBlock *BB : S.LiveBlocks)
    if (!buildReverseBlock(BB))
      return false;
  Values.initInvariantSlots();
  Flow.emitReverseEntryAndExit();
  Records.emitRecords();
  Records.reserveTape();
  Records.checkCapacityPerEntry();
  if (S.Combined)
    Records.dropUnusedTape();
  // One step of a checkpointed loop is outlined code with no source line
  // of its own; the loop's remark speaks for it.
  if (!isCheckpointStep(*S.Sig.Primal)) {
    Records.remarkTape(Values.recomputedCount());
    Records.remarkFields();
  }
  dropUnneededStores();
  return true;
}

unsigned ReverseBuilder::dropUnneededStores() {
  if (!S.Combined || !S.Sig.NoNeedArgs)
    return 0;
  AAResults &AAR = S.Ctx.FAM.getResult<AAManager>(*S.Primal);
  SmallPtrSet<const Value *, 4> Unread;
  for (Argument &A : S.Primal->args())
    if (A.getArgNo() < 64 && ((S.Sig.NoNeedArgs >> A.getArgNo()) & 1) &&
        A.getType()->isPointerTy() &&
        !mayReadAnywhere(AAR, *S.Primal, MemoryLocation::getBeforeOrAfter(&A)))
      Unread.insert(&A);
  if (Unread.empty())
    return 0;
  // Nothing uses a store: its clone goes, and the reverse sweep's adjoint of
  // it (reading and zeroing the shadow) stays.
  unsigned Dropped = 0;
  for (BasicBlock *BB : S.LiveBlocks)
    for (Instruction &I : *BB)
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (SI->isSimple() &&
            Unread.contains(getUnderlyingObject(SI->getPointerOperand())))
          if (auto *Clone = dyn_cast_or_null<StoreInst>(S.VMap.lookup(SI))) {
            Clone->eraseFromParent();
            ++Dropped;
          }
  if (Dropped) {
    Function &User = *S.Sig.Primal;
    OptimizationRemarkEmitter(&User).emit([&] {
      return OptimizationRemark("ad", "NoNeedStores", &User)
             << "gradient of '" << ore::NV("Function", demangle(User.getName()))
             << "' leaves out " << ore::NV("Stores", Dropped)
             << " store(s) to __ad_dupnoneed memory it never reads";
    });
  }
  return Dropped;
}

bool ReverseBuilder::cloneForward() {
  IRBuilder<> &B = S.B;
  S.Cloning.cloneBody(*S.Primal, *S.FwdF, S.Sig.Args);

  BasicBlock &Entry = S.FwdF->getEntryBlock();
  if (S.Combined) {
    B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
    AllocaInst *Tape =
        B.CreateAlloca(S.Ctx.Runtime.tapeType(), nullptr, "tape");
    S.Ctx.Runtime.initTape(B, Tape);
    S.TapeFwd = S.TapeRev = Tape;
    Adjoints.placeSlotsAfter(Tape);
  } else {
    S.TapeFwd = S.FwdF->getArg(S.FwdF->arg_size() - 1);
    S.TapeRev = S.RevF->getArg(S.RevF->arg_size() - 1);
  }

  for (BasicBlock *BB : S.LiveBlocks)
    for (PHINode &Phi : BB->phis()) {
      if (!S.AA.hasShadow(&Phi) && !S.AA.movesPointerBits(&Phi))
        continue;
      auto *ClonePhi = cast<PHINode>(S.VMap[&Phi]);
      S.Shadows[&Phi] = PHINode::Create(
          Phi.getType(), Phi.getNumIncomingValues(), Phi.getName() + ".shadow",
          ClonePhi->getParent()->begin());
      PendingShadowPhis.push_back(&Phi);
    }
  for (BasicBlock *BB : S.LiveBlocks)
    for (Instruction &I : *BB)
      if (!isa<PHINode>(I) && !forwardVisit(I))
        return false;
  if (!finishShadowPhis())
    return false;
  Flow.createPredecessorIndices();

  // The augmented forward sweep returns the primal result (and its shadow);
  // the combined one continues into the reverse sweep instead (see
  // emitReverseEntryAndExit).
  if (!S.Combined && S.Sig.ReturnActive &&
      isPointerLike(S.Primal->getReturnType())) {
    auto *Ret = cast<ReturnInst>(S.VMap[S.ReturnBlock->getTerminator()]);
    B.SetInsertPoint(Ret);
    Value *V = S.ReturnBlock->getTerminator()->getOperand(0);
    Value *Sh = S.Cloning.shadowOf(V, S.ReturnBlock->getTerminator());
    if (!Sh)
      return false;
    Value *Pair = PoisonValue::get(S.FwdF->getReturnType());
    Pair = B.CreateInsertValue(Pair, S.Cloning.cloneOf(V), 0);
    Pair = B.CreateInsertValue(Pair, Sh, 1);
    B.CreateRet(Pair);
    Ret->eraseFromParent();
  }
  return true;
}

bool ReverseBuilder::forwardShadowCopy(Instruction &I) {
  Instruction *Sh = S.Cloning.shadowCopy(I);
  if (!Sh)
    return false;
  Sh->insertAfter(cast<Instruction>(S.VMap[&I])->getIterator());
  S.Shadows[&I] = Sh;
  return true;
}

bool ReverseBuilder::forwardVisit(Instruction &I) {
  auto *Clone = cast<Instruction>(S.VMap[&I]);
  if (!I.isTerminator())
    S.B.SetInsertPoint(Clone->getNextNode());

  if (auto *Call = dyn_cast<CallBase>(&I))
    return forwardCall(*Call);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return forwardStore(*SI);

  if (!S.AA.hasShadow(&I) && !S.AA.movesPointerBits(&I))
    return true;

  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    forwardAllocaShadow(*AI, *Clone);
    return true;
  }

  if (auto *Ld = dyn_cast<LoadInst>(&I)) {
    Value *SP = S.Cloning.shadowOf(Ld->getPointerOperand(), &I);
    if (!SP)
      return false;
    S.Shadows[&I] =
        S.B.CreateAlignedLoad(I.getType(), SP, Ld->getAlign(), Ld->isVolatile(),
                              I.getName() + ".shadow");
    return true;
  }

  if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<SelectInst>(I) ||
      isa<FreezeInst>(I) || isa<ExtractValueInst>(I) || isa<InsertValueInst>(I))
    return forwardShadowCopy(I);

  if (isPointerLike(I.getType())) {
    S.Ctx.Diag.error(
        &I,
        Twine("cannot compute the shadow of a pointer produced by '") +
            I.getOpcodeName() + "'",
        "compute pointers with ordinary indexing");
    return false;
  }
  return true;
}

bool ReverseBuilder::forwardStore(StoreInst &SI) {
  Value *Ptr = SI.getPointerOperand(), *Val = SI.getValueOperand();
  bool ValActive = S.AA.isVaried(Val) || S.AA.hasShadow(Val);
  if (!S.AA.hasShadow(Ptr)) {
    if (!ValActive)
      return true;
    reportStoreWithoutShadow(S.Ctx.Diag, SI);
    return false;
  }
  bool PointerBits = S.AA.movesPointerBits(Val);
  if (!isPointerLike(Val->getType()) && !PointerBits)
    return true;
  // A pointer stored in differentiated memory (or its bits, copied as an
  // integer): its shadow goes to the same place in the shadow memory.
  Value *SP = S.Cloning.shadowOf(Ptr, &SI);
  Value *SV = S.AA.hasShadow(Val) || isa<Constant>(Val) || PointerBits
                  ? S.Cloning.shadowOf(Val, &SI)
                  : shadowForUnshadowedPointer(S.Ctx, Val, &SI);
  if (!SP || !SV)
    return false;
  S.B.CreateAlignedStore(SV, SP, SI.getAlign(), SI.isVolatile());
  return true;
}

void ReverseBuilder::forwardAllocaShadow(AllocaInst &AI, Instruction &Clone) {
  IRBuilder<> &B = S.B;
  const DataLayout &DL = S.Ctx.M.getDataLayout();
  Value *Count =
      B.CreateZExtOrTrunc(S.Cloning.cloneOf(AI.getArraySize()), B.getInt64Ty());
  Value *Size = B.CreateMul(
      Count, B.getInt64(DL.getTypeAllocSize(AI.getAllocatedType())));
  if (S.Combined && AI.isStaticAlloca()) {
    auto *Sh = cast<AllocaInst>(Clone.clone());
    Sh->insertAfter(Clone.getIterator());
    Sh->setName(AI.getName() + ".shadow");
    B.CreateMemSet(Sh, B.getInt8(0), Size, AI.getAlign());
    S.Shadows[&AI] = Sh;
  } else {
    // The adjoint function outlives the forward sweep's frame.
    S.Shadows[&AI] = B.CreateCall(S.Ctx.Runtime.calloc(), {B.getInt64(1), Size},
                                  AI.getName() + ".shadow");
    S.HeapShadows.insert(&AI);
  }
}

bool ReverseBuilder::finishShadowPhis() {
  for (PHINode *Phi : PendingShadowPhis) {
    auto *Sh = cast<PHINode>(S.Shadows[Phi]);
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      Value *In = Phi->getIncomingValue(K);
      Value *SIn = S.Shadows.lookup(In);
      if (!SIn && isa<ConstantInt>(In)) // Pointer bits: no pointer, no shadow.
        SIn = Constant::getNullValue(In->getType());
      if (!SIn)
        if (auto *C = dyn_cast<Constant>(In))
          SIn = shadowOfConstant(S.Ctx.M, C, /*ForReverse=*/true);
      if (!SIn)
        SIn = shadowForUnshadowedPointer(S.Ctx, In, Phi);
      if (!SIn)
        return false;
      Sh->addIncoming(SIn, cast<BasicBlock>(S.VMap[Phi->getIncomingBlock(K)]));
    }
  }
  return true;
}

bool ReverseBuilder::buildReverseBlock(BasicBlock *BB) {
  IRBuilder<> &B = S.B;
  S.CurBlock = BB;
  B.SetInsertPoint(S.RevBlocks[BB]);
  for (Instruction &I : reverse(*BB)) {
    if (I.isTerminator() || isa<PHINode>(I))
      continue;
    B.SetInsertPoint(S.RevBlocks[BB]);
    B.SetCurrentDebugLocation(I.getDebugLoc());
    if (!reverseVisit(I))
      return false;
  }
  B.SetInsertPoint(S.RevBlocks[BB]);
  B.SetCurrentDebugLocation(DebugLoc());
  Flow.emitReverseTerminator(BB);
  return true;
}

} // namespace ad
