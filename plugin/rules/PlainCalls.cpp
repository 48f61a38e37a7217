//===- PlainCalls.cpp - Rows of calls to differentiate or to leave alone --===//
#include "rules/PlainCalls.h"
#include "rules/CallRows.h"
#include "rules/ShadowErrors.h"

using namespace llvm;

namespace ad {

static bool definedActivity(CallActivity &A, const CallBase &Call,
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

static bool definedCall(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  return E.callDerivativeOfCallee(Call);
}

static bool definedAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &,
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

static bool unknownCall(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  if (!carriesDerivatives(E, Call))
    return true;
  reportUnknownCall(E.Diag, Call);
  return false;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::NoEffect,     Marker,   NoWrites, NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        nullptr},
  {CalleeKind::Inactive,     Inactive, Writes,   NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        nullptr},
  {CalleeKind::Defined,      Anywhere, Writes,   NotFresh,  Unrelated,
     definedActivity,        sameInForwardMode<definedCall>,
     definedCall,                                    definedAdjoint},
  {CalleeKind::Unknown,      Unknown,  Writes,   NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<unknownCall>,
     unknownCall,                                    nullptr},
  // signgam is an int and errno libc's: no floating-point value the
  // reverse sweep might read back changes.
  {CalleeKind::LibraryState, Unknown,  NoWrites, NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<unknownCall>,
     unknownCall,                                    nullptr}
};
// clang-format on

} // namespace

ArrayRef<CallRow> plainCallRows() { return Rows; }

} // namespace ad
