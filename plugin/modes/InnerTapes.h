//===- InnerTapes.h - An inner derivative's tape, differentiated ----*- C++
//-*-===//
//
// Nested derivatives differentiate generated code (driver/LoweringOrder.h):
// `f.ad.gradient` pushes a record per block onto its tape, stores primal
// values in it and pops them in its reverse sweep. Those values depend on
// the inputs, so an outer derivative needs their tangents or adjoints: the
// tape (an alloca holding a pointer, hence shadowed) gets a shadow tape, and
// every record a shadow record, which stores and loads through the record
// mirror as through any shadowed pointer. The tape's functions are rows of
// their own (CalleeKind::TapePush...) rather than code to differentiate: the
// buffer they realloc holds doubles, flags and pointers at packed offsets,
// which no memory layout describes.
//
// Forward mode: the shadow tape is an ordinary tape that sees the same
// pushes and pops, so a record's shadow is at the same offset of the shadow
// buffer. Each pointer is used right after its push or pop, before any later
// push can move the buffer.
//
// Reverse mode: the outer reverse sweep reads a record's shadow long after
// the push, when a later push may have moved the buffer. So each shadow
// record is a zeroed block of its own that never moves, and the shadow tape
// is a stack of their addresses: the inner pop gets the block of the
// matching push. The adjoints of the inner reverse sweep's loads accumulate
// into the block, the adjoints of the forward sweep's stores read and clear
// it, and the block is freed when the outer reverse sweep reaches the push.
// A block per record costs a calloc; it is what keeps reverse over reverse
// correct whatever the inner tape does with its memory.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_INNERTAPES_H
#define AD_MODES_INNERTAPES_H

#include "rules/KnownFunctions.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/IRBuilder.h"

namespace ad {

/// Forward mode: the same tape call on \p ShadowTape; for a push or pop, the
/// shadow record it returns (nullptr for the others). \p Bytes is the call's
/// size operand (unused by free).
llvm::Value *tangentOfTapeCall(llvm::IRBuilderBase &B, RuntimeFunctions &RT,
                               CalleeKind Kind, llvm::Value *ShadowTape,
                               llvm::Value *Bytes);

/// Reverse mode, in the forward sweep after the primal tape call: a push
/// gets a zeroed block and stacks it on \p ShadowTape, a pop unstacks it;
/// both return the block, the record's shadow. Free releases the stack.
llvm::Value *shadowOfTapeCall(llvm::IRBuilderBase &B, RuntimeFunctions &RT,
                              CalleeKind Kind, llvm::Value *ShadowTape,
                              llvm::Value *Bytes);

/// Reverse mode, in the reverse sweep: a push's shadow record \p Record has
/// given its adjoints to the stored values; it is freed.
void reverseOfTapeCall(llvm::IRBuilderBase &B, RuntimeFunctions &RT,
                       CalleeKind Kind, llvm::Value *Record);

/// Whether \p Kind is one of the tape's functions.
inline bool isTapeCall(CalleeKind Kind) {
  return Kind == CalleeKind::TapePush || Kind == CalleeKind::TapePop ||
         Kind == CalleeKind::TapeReserve || Kind == CalleeKind::TapeFree;
}

} // namespace ad

#endif
