//===- DeferredFrees.h - Frees a gradient moves to its reverse sweep ------===//
//
// A function that allocates scratch memory, fills it, reads it in its loops
// and frees it before returning (ADBench's GMM: Qdiags, sum_qs, xcentered)
// frees it in the middle of a gradient, at the end of the forward sweep: the
// reverse sweep cannot read the values back and tapes them all. A gradient
// (both sweeps in one function) may instead free such memory where its
// reverse sweep reaches the allocation, as it already frees the shadow: the
// program never sees the memory again (the free ran on every path), so only
// the peak memory grows by the buffer's size, once per call.
//
// Deferred are the frees of an allocation (malloc, calloc, operator new)
// that is outside loops, whose one-argument frees are outside loops too, run
// exactly once on every path from the allocation to the return, and call one
// function; the pointer may only be read, written through, offset, compared
// and passed to memory intrinsics (a call that might free it, or a store
// that lets it escape, keeps every free where it is). The canonical primal
// marks them (createCanonicalPrimal): the free with !ad.deferred.free, the
// allocation with !ad.freed.in.reverse naming the function to call
// (core/PrimalMarks.h reads them). Only gradients act on the marks:
// split derivatives free as the primal does.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_DEFERREDFREES_H
#define AD_PRIMAL_DEFERREDFREES_H

#include "llvm/IR/PassManager.h"

namespace ad {

/// Marks the frees of \p F (a canonical primal) a gradient may defer.
void markDeferredFrees(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
