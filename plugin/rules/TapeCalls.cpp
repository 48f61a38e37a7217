//===- TapeCalls.cpp - An inner derivative's tape, differentiated ---------===//
#include "rules/TapeCalls.h"
#include "rules/CallRows.h"
#include "runtime/RuntimeFunctions.h"

using namespace llvm;

namespace ad {

static bool tapeRecordActivity(CallActivity &A, const CallBase &Call,
                               const CalleeInfo &) {
  return A.hasShadow(Call.getArgOperand(0)) && A.markShadowed(&Call);
}

/// The record size a push, pop or reserve passes, as the emitter has it.
static Value *bytesOf(CallEmitter &E, CallBase &Call) {
  return Call.arg_size() > 1 ? E.primal(Call.getArgOperand(1)) : nullptr;
}

/// Runs \p Emit on the shadow of the tape \p Call works on. A tape without
/// a shadow (the inner derivative's records hold no derivatives) has nothing
/// to mirror; false after an error.
static bool onShadowTape(CallEmitter &E, CallBase &Call,
                         function_ref<void(Value *ShadowTape)> Emit) {
  Value *Tape = Call.getArgOperand(0);
  if (!E.hasShadow(Tape))
    return true;
  Value *ShadowTape = E.shadow(Tape, &Call);
  if (ShadowTape)
    Emit(ShadowTape);
  return ShadowTape;
}

static Value *addressSize(IRBuilderBase &B) {
  return B.getInt64(B.GetInsertBlock()->getDataLayout().getPointerSize());
}

// Forward mode: the shadow tape holds the records' tangents, pushed and
// popped alongside.
static bool pushTangent(TangentEmitter &E, CallBase &Call, const CalleeInfo &) {
  return onShadowTape(E, Call, [&](Value *ShadowTape) {
    E.setShadow(Call, E.B.CreateCall(E.Runtime.tapePush(),
                                     {ShadowTape, bytesOf(E, Call)},
                                     "record.shadow"));
  });
}
static bool popTangent(TangentEmitter &E, CallBase &Call, const CalleeInfo &) {
  return onShadowTape(E, Call, [&](Value *ShadowTape) {
    E.setShadow(Call, E.B.CreateCall(E.Runtime.tapePop(),
                                     {ShadowTape, bytesOf(E, Call)},
                                     "record.shadow"));
  });
}
static bool reserveTangent(TangentEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  return onShadowTape(E, Call, [&](Value *ShadowTape) {
    E.B.CreateCall(E.Runtime.tapeReserve(), {ShadowTape, bytesOf(E, Call)});
  });
}

/// Both modes free the shadow tape where the tape is freed (in the reverse
/// sweep's forward direction the stack is empty then: every push was popped).
static bool freeShadowTape(ShadowEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  return onShadowTape(E, Call, [&](Value *ShadowTape) {
    E.B.CreateCall(E.Runtime.tapeFree(), {ShadowTape});
  });
}

// Reverse mode: a record's adjoint must outlive the inner reverse sweep's pop
// (the outer reverse sweep reads it), so each record's shadow is a block of
// its own whose address the shadow tape holds; reserving is then pointless.
static bool pushForward(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  return onShadowTape(E, Call, [&](Value *ShadowTape) {
    IRBuilderBase &B = E.B;
    Value *Block = B.CreateCall(
        E.Runtime.calloc(), {B.getInt64(1), bytesOf(E, Call)}, "record.shadow");
    Value *Slot =
        B.CreateCall(E.Runtime.tapePush(), {ShadowTape, addressSize(B)});
    B.CreateAlignedStore(Block, Slot, Align(1));
    E.setShadow(Call, Block);
  });
}
static bool popForward(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  return onShadowTape(E, Call, [&](Value *ShadowTape) {
    IRBuilderBase &B = E.B;
    Value *Slot =
        B.CreateCall(E.Runtime.tapePop(), {ShadowTape, addressSize(B)});
    E.setShadow(Call, B.CreateAlignedLoad(B.getPtrTy(), Slot, Align(1),
                                          "record.shadow"));
  });
}
/// The reverse sweep reaches the push last: the record's block is done.
static bool pushAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &,
                        Value *) {
  if (!E.hasShadow(&Call))
    return true;
  Value *Record = E.shadow(&Call, &Call);
  if (!Record)
    return false;
  E.B.CreateCall(E.Runtime.free(), {Record});
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::TapePush,     Anywhere, Writes,   NotFresh,  Unrelated,
     tapeRecordActivity,     pushTangent,
     pushForward,                                    pushAdjoint},
  {CalleeKind::TapePop,      Anywhere, Writes,   NotFresh,  Unrelated,
     tapeRecordActivity,     popTangent,
     popForward,                                     nullptr},
  {CalleeKind::TapeReserve,  Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                reserveTangent,
     nullptr,                                        nullptr},
  {CalleeKind::TapeFree,     Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<freeShadowTape>,
     freeShadowTape,                                 nullptr}
};
// clang-format on

} // namespace

ArrayRef<CallRow> tapeCallRows() { return Rows; }

} // namespace ad
