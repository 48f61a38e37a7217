//===- ReverseCalls.cpp - Reverse mode's side of the call rows ------------===//
//
// Calls in both sweeps: the emitters the call rows write through, and the
// rows of calls to defined functions, whose derivative is another split
// derivative from the cache (its augmented forward sweep here, its adjoint
// in the reverse sweep, the tape shared).
//
//===----------------------------------------------------------------------===//
#include "modes/ReverseCalls.h"
#include "analysis/CallSignature.h"
#include "analysis/PrivateShadows.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "core/PrimalMarks.h"
#include "modes/RowDispatch.h"
#include "rules/MathRules.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"

using namespace llvm;

namespace ad {

ReverseBuilder::ForwardSweepCalls::ForwardSweepCalls(ReverseBuilder &R)
    : ShadowEmitter(R.S.B, R.S.Ctx.Runtime, R.S.Ctx.Diag, R.S.Facts), R(R) {}

Value *ReverseBuilder::ForwardSweepCalls::primal(Value *V) {
  return R.S.Cloning.cloneOf(V);
}
Value *ReverseBuilder::ForwardSweepCalls::shadow(Value *V, Instruction *At) {
  return R.S.Cloning.shadowOf(V, At);
}
bool ReverseBuilder::ForwardSweepCalls::callDerivativeOfCallee(CallBase &Call) {
  return R.forwardCallToDefined(Call);
}
CallBase &ReverseBuilder::ForwardSweepCalls::clone(CallBase &Call) {
  return R.S.Cloning.cloneOf(Call);
}
void ReverseBuilder::ForwardSweepCalls::setShadow(CallBase &Call, Value *S) {
  R.S.Cloning.setShadow(&Call, S);
}
void ReverseBuilder::ForwardSweepCalls::keepHeapShadow(CallBase &Call,
                                                       Value *S) {
  R.S.Shadows[&Call] = S;
  R.S.HeapShadows.insert(&Call);
}

ReverseBuilder::AdjointCalls::AdjointCalls(ReverseBuilder &R)
    : AdjointEmitter(R.S.B, R.S.Ctx.Runtime, R.S.Ctx.Diag, R.S.Facts), R(R) {}

Value *ReverseBuilder::AdjointCalls::primal(Value *V) {
  return R.Values.primalInReverse(V);
}
Value *ReverseBuilder::AdjointCalls::primalAlongside(Instruction &I,
                                                     Intrinsic::ID F) {
  // The block of I ran whole, and one that dominates it ran last with the
  // same arguments: its value is the one I's forward execution saw. Outside
  // loops a record field (a stack slot, in a gradient) costs less than a
  // second call; in a loop only a value at hand does, as memory that grows
  // with the trip count is what recomputing math calls there avoids.
  for (CallBase *C : callsAlongside(I, F)) {
    if (C->getParent() != I.getParent() && !R.S.DT.dominates(C, &I))
      continue;
    if (!R.S.LI.getLoopFor(C->getParent()))
      return R.Values.primalInReverse(C);
    if (Value *V = R.Values.primalAtHand(C))
      return V;
  }
  return nullptr;
}
Value *ReverseBuilder::AdjointCalls::shadow(Value *V, Instruction *At) {
  return R.Values.shadowInReverse(V, At);
}
bool ReverseBuilder::AdjointCalls::callDerivativeOfCallee(CallBase &Call) {
  return R.reverseCallToDefined(Call);
}
void ReverseBuilder::AdjointCalls::addAdjoint(Value *V, Value *D) {
  R.Adjoints.addAdjoint(V, D);
}
bool ReverseBuilder::AdjointCalls::hasHeapShadow(const CallBase &Call) const {
  return R.S.HeapShadows.count(&Call);
}
AllocaInst *ReverseBuilder::AdjointCalls::scratchSlot(Type *T,
                                                      const Twine &Name) {
  return R.Adjoints.scratchSlot(T, Name);
}

bool ReverseBuilder::ForwardSweepCalls::defersFrees() const {
  return R.S.Combined;
}
bool ReverseBuilder::AdjointCalls::defersFrees() const { return R.S.Combined; }

bool ReverseBuilder::forwardCall(CallBase &I) {
  ForwardSweepCalls E(*this);
  return emitByRow(I, &CallRow::Forward, E);
}

bool ReverseBuilder::reverseCall(CallBase &I, Value *DY) {
  AdjointCalls E(*this);
  return emitByRow(I, &CallRow::Adjoint, E, DY);
}

/// Bit k: parameter k has a shadow.
static uint64_t shadowedMask(const DerivativeSignature &Sig) {
  uint64_t Mask = 0;
  for (auto [K, A] : enumerate(Sig.Args))
    if (A == Activity::Shadowed && K < 64)
      Mask |= uint64_t(1) << K;
  return Mask;
}

bool ReverseBuilder::forwardCallToDefined(CallBase &I) {
  IRBuilder<> &B = S.B;
  bool Ok = true;
  const CalleeDerivative *CD = calleeDerivative(I, Ok);
  if (!CD)
    return Ok;
  auto *Clone = cast<CallBase>(S.VMap[&I]);
  SmallVector<Value *, 8> Args(Clone->args());
  for (auto [U, A] : zip(I.args(), CD->Sig.Args))
    if (A == Activity::Shadowed) {
      Value *Sh = S.Cloning.shadowOf(U, &I);
      if (!Sh)
        return false;
      Args.push_back(Sh);
    }
  Args.push_back(S.TapeFwd);
  B.SetInsertPoint(Clone);
  CallInst *New = B.CreateCall(CD->D.Augmented, Args);
  New->setDebugLoc(Clone->getDebugLoc());
  carryParallelRegionMark(*New, I, RegionRole::Augmented, *CD->Sig.Primal,
                          shadowedMask(CD->Sig), CD->Sig.PrivateShadowArgs);
  Value *Result = New;
  if (CD->Sig.ReturnActive && isPointerLike(I.getType())) {
    Result = B.CreateExtractValue(New, 0);
    S.Shadows[&I] = B.CreateExtractValue(New, 1, I.getName() + ".shadow");
  }
  Clone->replaceAllUsesWith(Result);
  Clone->eraseFromParent();
  return true;
}

bool ReverseBuilder::reverseCallToDefined(CallBase &I) {
  IRBuilder<> &B = S.B;
  bool Ok = true;
  const CalleeDerivative *CD = calleeDerivative(I, Ok);
  if (!CD)
    return Ok;
  SmallVector<Value *, 2> Args;
  if (CD->Sig.ReturnActive && isDifferentiableType(I.getType()))
    Args.push_back(Adjoints.takeAdjoint(&I));
  Args.push_back(S.TapeRev);
  CallInst *Result = B.CreateCall(CD->D.Adjoint, Args);
  carryParallelRegionMark(*Result, I, RegionRole::Adjoint, *CD->Sig.Primal,
                          shadowedMask(CD->Sig), CD->Sig.PrivateShadowArgs);
  unsigned Field = 0;
  for (auto [U, A] : zip(I.args(), CD->Sig.Args))
    if (A == Activity::Active)
      Adjoints.addAdjoint(U, B.CreateExtractValue(Result, Field++));
  return true;
}

const ReverseBuilder::CalleeDerivative *
ReverseBuilder::calleeDerivative(CallBase &I, bool &Ok) {
  // Asked twice per call, by the forward and the reverse sweep.
  auto [It, New] = CalleeDerivatives.try_emplace(&I);
  if (New) {
    std::optional<DerivativeSignature> Sig =
        signatureForCall(I, S.AA, DerivativeKind::Split);
    if (Sig) {
      Sig->InTeam |= S.Sig.InTeam;
      // A region's body: the shadows its threads may keep apart.
      // (Not those whose every location one iteration owns: plain adds
      // need no copy.)
      if (isParallelRegionCall(I)) {
        auto &SE = S.Ctx.FAM.getResult<ScalarEvolutionAnalysis>(*Sig->Primal);
        auto &LI = S.Ctx.FAM.getResult<LoopAnalysis>(*Sig->Primal);
        Sig->OwnedArgs = ownedArguments(I);
        Sig->KeptWriteArgs =
            keptWrittenArguments(I) &
            (S.Ctx.Cache->iterationOwned(Sig->Primal).Params | Sig->OwnedArgs);
        Sig->PrivateShadowArgs =
            privateShadowMask(privateShadows(*Sig->Primal, SE, LI)) &
            shadowedMask(*Sig) &
            ~(S.Ctx.Cache->iterationOwned(Sig->Primal).Params | Sig->OwnedArgs);
      }
      std::tie(Sig->KeptArgs, Sig->UnwrittenArgs) = Values.keptArguments(I);
      It->second = CalleeDerivative{*Sig, S.Ctx.Cache->split(*Sig)};
    }
  }
  if (!It->second)
    return nullptr;
  Ok = bool(It->second->D);
  return Ok ? &*It->second : nullptr;
}

} // namespace ad
