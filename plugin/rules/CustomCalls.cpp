//===- CustomCalls.cpp - The row of calls with user-registered rules ------===//
#include "rules/CustomCalls.h"
#include "rules/CallRows.h"
#include "rules/CustomRules.h"
#include "rules/MathCalls.h"

using namespace llvm;

namespace ad {

static bool customTangent(TangentEmitter &E, CallBase &Call,
                          const CalleeInfo &Info) {
  if (!E.isVaried(&Call))
    return true;
  Function *Fwd = checkedRule(
      Call, *Info.Custom, RuleMode::Forward,
      [&](const Value *V) { return E.hasShadow(V); }, E.Diag);
  if (!Fwd)
    return false;
  SmallVector<Value *, 8> Args(E.clone(Call).args());
  for (Value *Arg : Call.args())
    if (Arg->getType()->isFloatingPointTy())
      Args.push_back(E.tangent(Arg));
  E.setTangent(Call, E.B.CreateCall(Fwd, Args, Call.getName() + ".d"));
  return true;
}

static bool customForward(ShadowEmitter &E, CallBase &Call,
                          const CalleeInfo &Info) {
  return !E.isVaried(&Call) ||
         checkedRule(
             Call, *Info.Custom, RuleMode::Reverse,
             [&](const Value *V) { return E.hasShadow(V); }, E.Diag);
}

/// f_rev(primals, dret, &d1, ...) with every d zeroed first, then each d
/// added to its argument's adjoint. customForward has checked the rule
/// already, so fetching it here reports nothing new.
static bool customAdjoint(AdjointEmitter &E, CallBase &Call,
                          const CalleeInfo &Info, Value *DY) {
  if (!DY)
    return true;
  Function *Rev = checkedRule(
      Call, *Info.Custom, RuleMode::Reverse,
      [&](const Value *V) { return E.hasShadow(V); }, E.Diag);
  if (!Rev)
    return false;
  IRBuilderBase &B = E.B;
  SmallVector<Value *, 8> Args;
  for (Value *Arg : Call.args())
    Args.push_back(E.primal(Arg));
  Args.push_back(DY);
  SmallVector<std::pair<Value *, AllocaInst *>, 4> Outs;
  for (Value *Arg : Call.args()) {
    if (!Arg->getType()->isFloatingPointTy())
      continue;
    AllocaInst *D = E.scratchSlot(Arg->getType(), Arg->getName() + ".rule.adj");
    B.CreateStore(ConstantFP::getZero(Arg->getType()), D);
    Args.push_back(D);
    Outs.push_back({Arg, D});
  }
  B.CreateCall(Rev, Args);
  for (auto [Arg, D] : Outs)
    if (E.isVaried(Arg))
      E.addAdjoint(Arg, B.CreateLoad(Arg->getType(), D));
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::Custom,       ToResult, Writes,   NotFresh,  Unrelated,
     everyArgumentActivity,  customTangent,
     customForward,                                  customAdjoint}
};
// clang-format on

} // namespace

ArrayRef<CallRow> customCallRows() { return Rows; }

} // namespace ad
