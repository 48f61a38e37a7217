//===- MemoryCalls.h - Rows of allocation and byte-wise memory calls -*- C++ -*-===//
//
// Heap memory that may hold derivatives has a shadow of the same size,
// allocated zeroed beside it (malloc, calloc, aligned allocation,
// posix_memalign) and released with it: by forward mode where the primal
// frees it, by the reverse sweep when it reaches the allocation (the
// adjoints in the shadow are needed until then). realloc gives the shadow
// a new block too; the reverse sweep moves the adjoints of the kept bytes
// back into the old one.
//
// memcpy and memmove move bytes: forward mode copies the shadow alike; the
// reverse sweep moves the destination's adjoints back to the source, field
// by field where the floats are (RuntimeFunctions::memcpyAdjoint), and the
// forward sweep copies only the shadows of pointers, since the
// destination's shadow may hold an output's seed where the floats are.
// Which bytes are floats and which pointers is the type analysis's layout
// (core/MemoryLayout.h); where it cannot tell, the copy is an error.
// memset overwrites: the shadow is zeroed (forward mode at once, the
// reverse sweep when it reaches it, dropping what was written before).
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_MEMORYCALLS_H
#define AD_RULES_MEMORYCALLS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

} // namespace ad

#endif
