//===- TapeCalls.cpp - An inner derivative's tape, differentiated ---------===//
#include "rules/TapeCalls.h"
#include "runtime/RuntimeFunctions.h"

using namespace llvm;

namespace ad {

bool tapeRecordActivity(CallActivity &A, const CallBase &Call,
                        const CalleeInfo &) {
  return A.hasShadow(Call.getArgOperand(0)) && A.markShadowed(&Call);
}

/// The record size a push, pop or reserve passes, as the emitter has it.
static Value *bytesOf(CallEmitter &E, CallBase &Call) {
  return Call.arg_size() > 1 ? E.primal(Call.getArgOperand(1)) : nullptr;
}

bool tapeCallTangent(TangentEmitter &E, CallBase &Call,
                     const CalleeInfo &Info) {
  Value *Tape = Call.getArgOperand(0);
  if (!E.hasShadow(Tape))
    return true;
  Value *ShadowTape = E.shadow(Tape, &Call);
  if (!ShadowTape)
    return false;
  IRBuilderBase &B = E.B;
  RuntimeFunctions &RT = E.Runtime;
  switch (Info.Kind) {
  case CalleeKind::TapePush:
    E.setShadow(Call, B.CreateCall(RT.tapePush(),
                                   {ShadowTape, bytesOf(E, Call)},
                                   "record.shadow"));
    return true;
  case CalleeKind::TapePop:
    E.setShadow(Call, B.CreateCall(RT.tapePop(), {ShadowTape, bytesOf(E, Call)},
                                   "record.shadow"));
    return true;
  case CalleeKind::TapeReserve:
    B.CreateCall(RT.tapeReserve(), {ShadowTape, bytesOf(E, Call)});
    return true;
  case CalleeKind::TapeFree:
    B.CreateCall(RT.tapeFree(), {ShadowTape});
    return true;
  default:
    llvm_unreachable("not a tape call");
  }
}

bool tapeCallForward(ShadowEmitter &E, CallBase &Call,
                     const CalleeInfo &Info) {
  Value *Tape = Call.getArgOperand(0);
  if (!E.hasShadow(Tape))
    return true;
  Value *ShadowTape = E.shadow(Tape, &Call);
  if (!ShadowTape)
    return false;
  IRBuilderBase &B = E.B;
  RuntimeFunctions &RT = E.Runtime;
  Value *AddressSize =
      B.getInt64(B.GetInsertBlock()->getDataLayout().getPointerSize());
  switch (Info.Kind) {
  case CalleeKind::TapePush: {
    Value *Block = B.CreateCall(RT.calloc(), {B.getInt64(1), bytesOf(E, Call)},
                                "record.shadow");
    Value *Slot = B.CreateCall(RT.tapePush(), {ShadowTape, AddressSize});
    B.CreateAlignedStore(Block, Slot, Align(1));
    E.setShadow(Call, Block);
    return true;
  }
  case CalleeKind::TapePop: {
    Value *Slot = B.CreateCall(RT.tapePop(), {ShadowTape, AddressSize});
    E.setShadow(Call, B.CreateAlignedLoad(B.getPtrTy(), Slot, Align(1),
                                          "record.shadow"));
    return true;
  }
  case CalleeKind::TapeReserve: // Blocks are allocated one by one.
    return true;
  case CalleeKind::TapeFree: // The stack is empty: every push was popped.
    B.CreateCall(RT.tapeFree(), {ShadowTape});
    return true;
  default:
    llvm_unreachable("not a tape call");
  }
}

bool tapeCallAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &Info,
                     Value *) {
  if (Info.Kind != CalleeKind::TapePush || !E.hasShadow(&Call))
    return true;
  Value *Record = E.shadow(&Call, &Call);
  if (!Record)
    return false;
  E.B.CreateCall(E.Runtime.free(), {Record});
  return true;
}

} // namespace ad
