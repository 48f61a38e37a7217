//===- TapeCalls.h - An inner derivative's tape, differentiated -*- C++ -*-===//
//
// Nested derivatives differentiate generated code (driver/LoweringOrder.h):
// `f.ad.gradient` pushes a record per block onto its tape, stores primal
// values in it and pops them in its reverse sweep. Those values depend on
// the inputs, so an outer derivative needs their tangents or adjoints: the
// tape (an alloca holding a pointer, hence shadowed) gets a shadow tape, and
// every record a shadow record, which stores and loads through the record
// mirror as through any shadowed pointer. The tape's functions are rows of
// their own (CalleeKind::TapePush..., CallRows.h) rather than code to differentiate: the
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
#ifndef AD_RULES_TAPECALLS_H
#define AD_RULES_TAPECALLS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

/// A record pushed or popped on a shadowed tape has a shadow.
/// Forward mode: the same tape call on the shadow tape; a push or pop
/// returns the shadow record, at the same offset of the shadow buffer.
/// The forward sweep: a push allocates the shadow record's block and
/// pushes its address on the shadow tape; a pop pops it; reserve does
/// nothing (blocks come one by one); free frees the shadow tape.
/// The reverse sweep: at a push, its shadow record's block is freed.

} // namespace ad

#endif
