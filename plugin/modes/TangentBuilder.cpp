//===- TangentBuilder.cpp - Forward mode
//------------------------------------===//
#include "modes/TangentBuilder.h"
#include "analysis/CallSignature.h"
#include "analysis/TypeAnalysis.h"
#include "core/IRHelpers.h"
#include "modes/ConstantShadows.h"
#include "modes/RowDispatch.h"
#include "modes/StoredPointers.h"
#include "modes/UnsupportedConstructs.h"
#include "rules/AtomicUpdates.h"
#include "core/ParallelRegionCalls.h"
#include "rules/MathCalls.h"
#include "rules/MathRules.h"
#include "rules/ShadowErrors.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// What the call rows emit through: the clone, the tangents and shadows of
/// this builder.
class TangentBuilder::Emitter final : public TangentEmitter {
public:
  explicit Emitter(TangentBuilder &TB)
      : TangentEmitter(TB.B, TB.Ctx.Runtime, TB.Ctx.Diag, TB.Facts), TB(TB) {}

  Value *primal(Value *V) override { return TB.Cloning.cloneOf(V); }
  Value *primalAlongside(Instruction &I, Intrinsic::ID F) override {
    // The tangent follows I's clone: a call before I in its block is there.
    for (CallBase *C : callsAlongside(I, F))
      if (C->getParent() == I.getParent() && C->comesBefore(&I))
        return TB.Cloning.cloneOf(C);
    return nullptr;
  }
  Value *shadow(Value *V, Instruction *At) override {
    return TB.Cloning.shadowOf(V, At);
  }
  bool callDerivativeOfCallee(CallBase &Call) override {
    return TB.visitCallToDefined(Call);
  }
  CallBase &clone(CallBase &Call) override { return TB.Cloning.cloneOf(Call); }
  void setShadow(CallBase &Call, Value *S) override {
    TB.Cloning.setShadow(&Call, S);
  }
  void keepHeapShadow(CallBase &, Value *) override {}
  Value *tangent(Value *V) override { return TB.tangentOf(V); }
  void setTangent(Instruction &I, Value *T) override { TB.Tangents[&I] = T; }

private:
  TangentBuilder &TB;
};

TangentBuilder::TangentBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                               Function *Primal, Function *Tangent)
    : Ctx(Ctx), Sig(Sig), Primal(Primal), NewF(Tangent),
      AA(*Primal, Sig.Args, Ctx.Types, Ctx.Globals, Ctx.MessagePassers),
      Facts(AA, Ctx.Types),
      Cloning(Ctx, AA, VMap, Tangents, /*ForReverse=*/false),
      B(Ctx.M.getContext()) {}

bool TangentBuilder::build() {
  if (!checkSupportedConstructs(Ctx, AA, *Primal))
    return false;
  Cloning.cloneBody(*Primal, *NewF, Sig.Args);

  ReversePostOrderTraversal<Function *> RPOT(Primal);
  for (BasicBlock *BB : RPOT)
    for (PHINode &Phi : BB->phis()) {
      bool Varied = AA.isVaried(&Phi);
      if (!Varied && !AA.hasShadow(&Phi) && !AA.movesPointerBits(&Phi))
        continue;
      auto *ClonePhi = cast<PHINode>(VMap[&Phi]);
      PHINode *T =
          PHINode::Create(Phi.getType(), Phi.getNumIncomingValues(),
                          Phi.getName() + ".d", ClonePhi->getParent()->begin());
      Tangents[&Phi] = T;
      PendingPhis.push_back(&Phi);
    }

  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB)
      if (!isa<PHINode>(I) && !visit(I))
        return false;
  if (!finishPhis())
    return false;
  rewriteReturns();
  return true;
}

Value *TangentBuilder::tangentOf(Value *Orig) {
  if (Value *T = Tangents.lookup(Orig))
    return T;
  return Constant::getNullValue(Orig->getType());
}

bool TangentBuilder::visit(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  if (!I.isTerminator())
    B.SetInsertPoint(Clone->getNextNode());

  if (auto *Call = dyn_cast<CallBase>(&I))
    return visitCall(*Call);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return visitStore(*SI);
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return visitLoad(*LI);
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return visitAtomicUpdate(*RMW);

  bool Varied = AA.isVaried(&I),
       Shadowed = AA.hasShadow(&I) || AA.movesPointerBits(&I);
  if (!Varied && !Shadowed) {
    // Bits of a float that pass through an integer (a type-punned copy)
    // keep their tangent bits.
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (Value *T = Tangents.lookup(BC->getOperand(0)))
        Tangents[&I] = B.CreateBitCast(T, I.getType());
    return true;
  }

  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    auto *S = cast<AllocaInst>(Clone->clone());
    S->insertAfter(Clone->getIterator());
    S->setName(I.getName() + ".shadow");
    B.SetInsertPoint(S->getNextNode());
    const DataLayout &DL = Ctx.M.getDataLayout();
    Value *Size =
        B.CreateMul(B.CreateZExtOrTrunc(S->getArraySize(), B.getInt64Ty()),
                    B.getInt64(DL.getTypeAllocSize(AI->getAllocatedType())));
    B.CreateMemSet(S, B.getInt8(0), Size, AI->getAlign());
    Tangents[&I] = S;
    return true;
  }

  if (Shadowed && !Varied)
    return visitShadowCopy(I);

  if (const MathRule *Rule = lookupInstructionRule(I.getOpcode())) {
    Emitter E(*this);
    Tangents[&I] = tangentByRule(E, I, *Rule);
    return true;
  }

  switch (I.getOpcode()) {
  case Instruction::Select:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::ExtractElement:
  case Instruction::InsertElement:
  case Instruction::ShuffleVector:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
  case Instruction::Freeze:
  case Instruction::BitCast:
    return visitLinearStructural(I);
  default:
    break;
  }
  Ctx.Diag.error(&I,
                 Twine("no derivative rule for instruction '") +
                     I.getOpcodeName() + "'",
                 "rewrite this operation or report it as a missing rule");
  return false;
}

bool TangentBuilder::visitLinearStructural(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  Instruction *T = Clone->clone();
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    Value *Op = I.getOperand(K);
    if (isa<SelectInst>(I) && K == 0)
      continue;
    if (isDifferentiableType(Op->getType()) || AA.fpBitsType(Op))
      T->setOperand(K, tangentOf(Op));
    else if (isPointerLike(Op->getType()) && AA.hasShadow(Op))
      T->setOperand(K, Cloning.shadowOf(Op, &I));
  }
  T->setName(I.getName() + ".d");
  B.Insert(T);
  Tangents[&I] = T;
  return true;
}

bool TangentBuilder::visitShadowCopy(Instruction &I) {
  Instruction *S = Cloning.shadowCopy(I);
  if (!S)
    return false;
  B.Insert(S);
  Tangents[&I] = S;
  return true;
}

bool TangentBuilder::visitLoad(LoadInst &I) {
  Value *Ptr = I.getPointerOperand();
  if (!AA.hasShadow(Ptr))
    return true;
  bool Carries = AA.isVaried(&I) || AA.hasShadow(&I) || AA.movesPointerBits(&I);
  // An integer load from differentiated memory may be half of a type-punned
  // copy of a float: keep its tangent bits when they are stored or cast.
  if (!Carries && I.getType()->isIntegerTy())
    Carries = any_of(I.users(), [](User *U) {
      return isa<StoreInst>(U) || isa<BitCastInst>(U);
    });
  if (!Carries)
    return true;
  Value *Shadow = Cloning.shadowOf(Ptr, &I);
  if (!Shadow)
    return false;
  LoadInst *T = B.CreateAlignedLoad(I.getType(), Shadow, I.getAlign(),
                                    I.isVolatile(), I.getName() + ".d");
  Tangents[&I] = T;
  return true;
}

Value *TangentBuilder::shadowOfStoredPointer(Value *Val, Instruction *At) {
  if (AA.hasShadow(Val) || isa<Constant>(Val))
    if (Value *S = Cloning.shadowOf(Val, At))
      return S;
  return shadowForUnshadowedPointer(Ctx, Val, At);
}

bool TangentBuilder::visitStore(StoreInst &I) {
  Value *Ptr = I.getPointerOperand(), *Val = I.getValueOperand();
  if (!AA.hasShadow(Ptr)) {
    if (AA.isVaried(Val) || AA.hasShadow(Val)) {
      reportStoreWithoutShadow(Ctx.Diag, I);
      return false;
    }
    return true;
  }
  Value *Shadow = Cloning.shadowOf(Ptr, &I);
  if (!Shadow)
    return false;
  Value *T;
  if (isPointerLike(Val->getType()))
    T = shadowOfStoredPointer(Val, &I);
  else
    T = tangentOf(Val);
  if (!T)
    return false;
  B.CreateAlignedStore(T, Shadow, I.getAlign(), I.isVolatile());
  return true;
}

/// The same update of the shadow, with the value's tangent: its result is
/// the tangent of the location's old value (AtomicUpdates.h).
bool TangentBuilder::visitAtomicUpdate(AtomicRMWInst &I) {
  if (!isDifferentiatedAtomicUpdate(I))
    return true;
  Value *Ptr = I.getPointerOperand(), *Val = I.getValOperand();
  if (!AA.hasShadow(Ptr)) {
    if (AA.isVaried(Val)) {
      reportStoreWithoutShadow(Ctx.Diag, I);
      return false;
    }
    return true;
  }
  if (!checkAtomicUpdate(Ctx.Diag, I))
    return false;
  Value *Shadow = Cloning.shadowOf(Ptr, &I);
  if (!Shadow)
    return false;
  Value *Old =
      B.CreateAtomicRMW(I.getOperation(), Shadow, tangentOf(Val), I.getAlign(),
                        I.getOrdering(), I.getSyncScopeID());
  if (AA.isVaried(&I))
    Tangents[&I] = Old;
  return true;
}

bool TangentBuilder::visitCall(CallBase &I) {
  Emitter E(*this);
  return emitByRow(I, &CallRow::Tangent, E);
}

bool TangentBuilder::visitCallToDefined(CallBase &I) {
  std::optional<DerivativeSignature> Sig =
      signatureForCall(I, AA, DerivativeKind::Tangent);
  if (!Sig)
    return true;
  Sig->InTeam |= this->Sig.InTeam;
  const DerivativeSignature &Callee = *Sig;
  Function *T = Ctx.Cache->tangent(Callee);
  if (!T)
    return false;

  auto *Clone = cast<CallBase>(VMap[&I]);
  SmallVector<Value *, 8> Args(Clone->args());
  for (auto [U, A] : zip(I.args(), Callee.Args)) {
    if (A == Activity::Shadowed) {
      Value *S = Cloning.shadowOf(U, &I);
      if (!S)
        return false;
      Args.push_back(S);
    } else if (A == Activity::Active) {
      Args.push_back(tangentOf(U));
    }
  }
  B.SetInsertPoint(Clone);
  CallInst *New = B.CreateCall(T, Args);
  New->setDebugLoc(Clone->getDebugLoc());
  carryParallelRegionMark(*New, I, RegionRole::Tangent);
  Value *PrimalResult = New;
  if (Callee.ReturnActive) {
    PrimalResult = B.CreateExtractValue(New, 0);
    Tangents[&I] = B.CreateExtractValue(New, 1, I.getName() + ".d");
  }
  Clone->replaceAllUsesWith(PrimalResult);
  Clone->eraseFromParent();
  return true;
}

/// The primal call stays; after it, f_fwd(primals, tangents) (see
/// CustomRules.h), with a zero tangent for inactive arguments.
bool TangentBuilder::finishPhis() {
  for (PHINode *Phi : PendingPhis) {
    auto *T = cast<PHINode>(Tangents[Phi]);
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      Value *In = Phi->getIncomingValue(K);
      Value *TIn;
      if (isPointerLike(Phi->getType()))
        TIn = shadowOfStoredPointer(In, Phi);
      else
        TIn = tangentOf(In);
      if (!TIn)
        return false;
      T->addIncoming(TIn, cast<BasicBlock>(VMap[Phi->getIncomingBlock(K)]));
    }
  }
  return true;
}

void TangentBuilder::rewriteReturns() {
  if (!Sig.ReturnActive)
    return;
  for (BasicBlock &BB : *Primal) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    auto *CloneRet = cast<ReturnInst>(VMap[Ret]);
    B.SetInsertPoint(CloneRet);
    Value *V = Ret->getReturnValue();
    Value *T =
        isPointerLike(V->getType()) ? Cloning.shadowOf(V, Ret) : tangentOf(V);
    if (!T)
      T = Constant::getNullValue(V->getType());
    Value *Pair = PoisonValue::get(NewF->getReturnType());
    Pair = B.CreateInsertValue(Pair, Cloning.cloneOf(V), 0);
    Pair = B.CreateInsertValue(Pair, T, 1);
    B.CreateRet(Pair);
    CloneRet->eraseFromParent();
  }
}

} // namespace ad
