//===- PlainCalls.cpp - Rows of calls to differentiate or to leave alone --===//
#include "rules/PlainCalls.h"
#include "rules/ShadowErrors.h"

using namespace llvm;

namespace ad {

bool definedActivity(CallActivity &A, const CallBase &Call,
                     const CalleeInfo &) {
  // A callee that reads a shadowed global may return what it read, or a
  // pointer into it.
  bool AnyActive = A.accessesShadowedGlobals(Call), AnyShadow = AnyActive;
  for (const Use &U : Call.args()) {
    AnyActive |= A.isVaried(U) || A.hasShadow(U) || A.movesPointerBits(U);
    AnyShadow |= A.hasShadow(U) || A.movesPointerBits(U);
  }
  bool Changed = AnyActive && A.markVaried(&Call);
  Changed |= AnyShadow && A.markShadowed(&Call);
  // A callee given derivatives may write them into any memory it is given
  // (a double's bits into a caller's `long`): local memory passed along
  // gets a shadow too.
  if (AnyActive)
    for (const Use &U : Call.args())
      Changed |= A.shadowLocalMemory(U);
  return Changed;
}

bool definedCall(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  return E.callDerivativeOfCallee(Call);
}

bool definedAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &,
                    Value *) {
  return E.callDerivativeOfCallee(Call);
}

/// Whether a derivative or a shadow reaches \p Call, in or out.
static bool carriesDerivatives(const CallEmitter &E, const CallBase &Call) {
  bool Active = E.isVaried(&Call) || E.hasShadow(&Call);
  for (const Use &U : Call.args())
    Active |= E.isVaried(U) || E.hasShadow(U);
  return Active;
}

bool unknownCall(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  if (!carriesDerivatives(E, Call))
    return true;
  reportUnknownCall(E.Diag, Call);
  return false;
}

} // namespace ad
