//===- MirrorCalls.cpp - Library calls repeated on the shadows ------------===//
#include "rules/MirrorCalls.h"
#include "rules/CallRows.h"
#include "runtime/RuntimeFunctions.h"
#include "support/Diagnostics.h"

using namespace llvm;

namespace ad {

static bool mirrorActivity(CallActivity &A, const CallBase &Call,
                           const CalleeInfo &) {
  return any_of(Call.args(), [&](const Use &U) { return A.hasShadow(U); }) &&
         A.markShadowed(&Call);
}

static bool mirrorCall(ShadowEmitter &E, CallBase &Call,
                       const CalleeInfo &Info) {
  if (none_of(Call.args(), [&](const Use &U) { return E.hasShadow(U); }))
    return true;
  const MirrorShape &Shape = *Info.Mirror;
  SmallVector<Value *, 4> Args, Shadows(Call.arg_size(), nullptr);
  for (Use &U : Call.args()) {
    if (!U->getType()->isPointerTy()) {
      Args.push_back(E.primal(U));
      continue;
    }
    if (!E.hasShadow(U) && !isa<Constant>(U)) {
      E.Diag.error(&Call,
                   "'" + Call.getCalledFunction()->getName() +
                       "' links a node of differentiated memory with one "
                       "that has no shadow",
                   "keep the whole container in differentiated memory");
      return false;
    }
    Value *S = E.shadow(U, &Call);
    if (!S)
      return false;
    Shadows[U.getOperandNo()] = S;
    Args.push_back(S);
  }
  CallBase &Clone = E.clone(Call);
  if (Shape.SyncFrom >= 0) {
    IRBuilder<> Before(&Clone);
    Value *Null = Constant::getNullValue(Before.getPtrTy());
    bool Tree = Shape.Header >= 0;
    Before.CreateCall(E.Runtime.rbTreeSyncColours(),
                      {E.primal(Call.getArgOperand(Shape.SyncFrom)),
                       Shadows[Shape.SyncFrom],
                       Tree ? E.primal(Call.getArgOperand(Shape.Header)) : Null,
                       Tree ? Shadows[Shape.Header] : Null,
                       Before.getInt1(Shape.FromSuccessor)});
  }
  CallInst *Mirror =
      E.B.CreateCall(Clone.getFunctionType(), Clone.getCalledOperand(), Args);
  Mirror->setCallingConv(Clone.getCallingConv());
  Mirror->setDebugLoc(Clone.getDebugLoc());
  if (!Call.getType()->isVoidTy())
    Mirror->setName(Call.getName() + ".shadow");
  if (E.hasShadow(&Call))
    E.setShadow(Call, Mirror);
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::MirrorCall,   Anywhere, Writes,   NotFresh,  Unrelated,
     mirrorActivity,         sameInForwardMode<mirrorCall>,
     mirrorCall,                                     nullptr}
};
// clang-format on

} // namespace

ArrayRef<CallRow> mirrorCallRows() { return Rows; }

} // namespace ad
