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

bool freshMemoryActivity(CallActivity &A, const llvm::CallBase &Call,
                         const CalleeInfo &Info);
bool allocationShadow(ShadowEmitter &E, llvm::CallBase &Call,
                      const CalleeInfo &Info);
bool allocationOutShadow(ShadowEmitter &E, llvm::CallBase &Call,
                         const CalleeInfo &Info);
bool allocationAdjoint(AdjointEmitter &E, llvm::CallBase &Call,
                       const CalleeInfo &Info, llvm::Value *DY);

bool reallocTangent(TangentEmitter &E, llvm::CallBase &Call,
                    const CalleeInfo &Info);
bool reallocForward(ShadowEmitter &E, llvm::CallBase &Call,
                    const CalleeInfo &Info);
bool reallocAdjoint(AdjointEmitter &E, llvm::CallBase &Call,
                    const CalleeInfo &Info, llvm::Value *DY);

bool freeTangent(TangentEmitter &E, llvm::CallBase &Call,
                 const CalleeInfo &Info);

bool memCopyActivity(CallActivity &A, const llvm::CallBase &Call,
                     const CalleeInfo &Info);
bool memCopyTangent(TangentEmitter &E, llvm::CallBase &Call,
                    const CalleeInfo &Info);
bool memCopyForward(ShadowEmitter &E, llvm::CallBase &Call,
                    const CalleeInfo &Info);
bool memCopyAdjoint(AdjointEmitter &E, llvm::CallBase &Call,
                    const CalleeInfo &Info, llvm::Value *DY);

bool memSetTangent(TangentEmitter &E, llvm::CallBase &Call,
                   const CalleeInfo &Info);
bool memSetAdjoint(AdjointEmitter &E, llvm::CallBase &Call,
                   const CalleeInfo &Info, llvm::Value *DY);

} // namespace ad

#endif
