//===- InnerTapes.cpp - An inner derivative's tape, differentiated --------===//
#include "modes/InnerTapes.h"

using namespace llvm;

namespace ad {

Value *tangentOfTapeCall(IRBuilderBase &B, RuntimeFunctions &RT,
                         CalleeKind Kind, Value *ShadowTape, Value *Bytes) {
  switch (Kind) {
  case CalleeKind::TapePush:
    return B.CreateCall(RT.tapePush(), {ShadowTape, Bytes}, "record.shadow");
  case CalleeKind::TapePop:
    return B.CreateCall(RT.tapePop(), {ShadowTape, Bytes}, "record.shadow");
  case CalleeKind::TapeReserve:
    B.CreateCall(RT.tapeReserve(), {ShadowTape, Bytes});
    return nullptr;
  case CalleeKind::TapeFree:
    B.CreateCall(RT.tapeFree(), {ShadowTape});
    return nullptr;
  default:
    llvm_unreachable("not a tape call");
  }
}

Value *shadowOfTapeCall(IRBuilderBase &B, RuntimeFunctions &RT, CalleeKind Kind,
                        Value *ShadowTape, Value *Bytes) {
  Type *Ptr = B.getPtrTy();
  Value *AddressSize =
      B.getInt64(B.GetInsertBlock()->getDataLayout().getPointerSize());
  switch (Kind) {
  case CalleeKind::TapePush: {
    Value *Block =
        B.CreateCall(RT.calloc(), {B.getInt64(1), Bytes}, "record.shadow");
    Value *Slot = B.CreateCall(RT.tapePush(), {ShadowTape, AddressSize});
    B.CreateAlignedStore(Block, Slot, Align(1));
    return Block;
  }
  case CalleeKind::TapePop: {
    Value *Slot = B.CreateCall(RT.tapePop(), {ShadowTape, AddressSize});
    return B.CreateAlignedLoad(Ptr, Slot, Align(1), "record.shadow");
  }
  case CalleeKind::TapeReserve: // Blocks are allocated one by one.
    return nullptr;
  case CalleeKind::TapeFree: // The stack is empty: every push was popped.
    B.CreateCall(RT.tapeFree(), {ShadowTape});
    return nullptr;
  default:
    llvm_unreachable("not a tape call");
  }
}

void reverseOfTapeCall(IRBuilderBase &B, RuntimeFunctions &RT, CalleeKind Kind,
                       Value *Record) {
  if (Kind == CalleeKind::TapePush)
    B.CreateCall(RT.free(), {Record});
}

} // namespace ad
