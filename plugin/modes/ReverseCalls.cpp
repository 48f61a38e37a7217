//===- ReverseCalls.cpp - Reverse mode's side of the call rows ------------===//
#include "modes/ReverseCalls.h"
#include "core/IRHelpers.h"
#include "rules/CallRows.h"

using namespace llvm;

namespace ad {

ForwardSweepCalls::ForwardSweepCalls(ReverseBuilder &R)
    : ShadowEmitter(R.B, R.Ctx.Runtime, R.Ctx.Diag, R.Facts), R(R) {}

Value *ForwardSweepCalls::primal(Value *V) { return R.cloneOf(V); }
Value *ForwardSweepCalls::shadow(Value *V, Instruction *At) {
  return R.shadowInForward(V, At);
}
bool ForwardSweepCalls::callDerivativeOfCallee(CallBase &Call) {
  return R.forwardCallToDefined(Call);
}
CallBase &ForwardSweepCalls::clone(CallBase &Call) {
  return *cast<CallBase>(R.VMap[&Call]);
}
void ForwardSweepCalls::setShadow(CallBase &Call, Value *S) {
  R.Shadows[&Call] = S;
}
void ForwardSweepCalls::keepHeapShadow(CallBase &Call, Value *S) {
  R.Shadows[&Call] = S;
  R.HeapShadows.insert(&Call);
}

AdjointCalls::AdjointCalls(ReverseBuilder &R)
    : AdjointEmitter(R.B, R.Ctx.Runtime, R.Ctx.Diag, R.Facts), R(R) {}

Value *AdjointCalls::primal(Value *V) { return R.primalInReverse(V); }
Value *AdjointCalls::shadow(Value *V, Instruction *At) {
  return R.shadowInReverse(V, At);
}
bool AdjointCalls::callDerivativeOfCallee(CallBase &Call) {
  return R.reverseCallToDefined(Call);
}
void AdjointCalls::addAdjoint(Value *V, Value *D) { R.addAdjoint(V, D); }
bool AdjointCalls::hasHeapShadow(const CallBase &Call) const {
  return R.HeapShadows.count(&Call);
}
AllocaInst *AdjointCalls::scratchSlot(Type *T, const Twine &Name) {
  return R.scratchSlot(T, Name);
}

bool ReverseBuilder::forwardCall(CallBase &I) {
  CalleeInfo Info = classifyCallee(I);
  auto *Forward = rowOf(Info.Kind).Forward;
  if (!Forward)
    return true;
  ForwardSweepCalls E(*this);
  return Forward(E, I, Info);
}

bool ReverseBuilder::reverseCall(CallBase &I, Value *DY) {
  CalleeInfo Info = classifyCallee(I);
  auto *Adjoint = rowOf(Info.Kind).Adjoint;
  if (!Adjoint)
    return true;
  AdjointCalls E(*this);
  return Adjoint(E, I, Info, DY);
}

bool ReverseBuilder::forwardCallToDefined(CallBase &I) {
  std::optional<DerivativeSignature> Sig = calleeSignature(I);
  if (!Sig)
    return true;
  const DerivativeSignature &Callee = *Sig;
  SplitDerivative D = Ctx.Cache->split(Callee);
  if (!D)
    return false;
  auto *Clone = cast<CallBase>(VMap[&I]);
  SmallVector<Value *, 8> Args(Clone->args());
  for (auto [U, A] : zip(I.args(), Callee.Args))
    if (A == Activity::Shadowed) {
      Value *S = shadowInForward(U, &I);
      if (!S)
        return false;
      Args.push_back(S);
    }
  Args.push_back(TapeFwd);
  B.SetInsertPoint(Clone);
  CallInst *New = B.CreateCall(D.Augmented, Args);
  New->setDebugLoc(Clone->getDebugLoc());
  Value *Result = New;
  if (Callee.ReturnActive && isPointerLike(I.getType())) {
    Result = B.CreateExtractValue(New, 0);
    Shadows[&I] = B.CreateExtractValue(New, 1, I.getName() + ".shadow");
  }
  Clone->replaceAllUsesWith(Result);
  Clone->eraseFromParent();
  return true;
}

bool ReverseBuilder::reverseCallToDefined(CallBase &I) {
  std::optional<DerivativeSignature> Sig = calleeSignature(I);
  if (!Sig)
    return true;
  const DerivativeSignature &Callee = *Sig;
  SplitDerivative D = Ctx.Cache->split(Callee);
  if (!D)
    return false;
  SmallVector<Value *, 2> Args;
  if (Callee.ReturnActive && isDifferentiableType(I.getType()))
    Args.push_back(takeAdjoint(&I));
  Args.push_back(TapeRev);
  CallInst *Adjoints = B.CreateCall(D.Adjoint, Args);
  unsigned Field = 0;
  for (auto [U, A] : zip(I.args(), Callee.Args))
    if (A == Activity::Active)
      addAdjoint(U, B.CreateExtractValue(Adjoints, Field++));
  return true;
}

} // namespace ad
