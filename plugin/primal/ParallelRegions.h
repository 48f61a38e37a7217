//===- ParallelRegions.h - OpenMP regions in the canonical primal -*- C++
//-*-===//
//
// The canonical primal of a function that opens OpenMP parallel regions
// calls each region's outlined body directly, marked as a region
// (core/ParallelRegionCalls.h says why and how), and combines reductions
// in a critical section instead of libomp's reduction protocol.
//
// The protocol (__kmpc_reduce[_nowait]) lets libomp choose per call: it may
// combine the threads' private copies itself, calling the reduction
// function clang emitted from inside the runtime (a tree), which no
// derivative would see; or answer 1 (combine in the code that follows,
// under a lock) or 2 (combine with atomics, a compare-and-swap loop for
// max, min and *). The canonical primal takes the lock itself and always
// goes the first way: `*shared = *shared op *private` under a critical
// section, plain code whose derivative the builders make like any other,
// and whose reverse runs under the same lock (rules/ParallelCalls.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_PARALLELREGIONS_H
#define AD_PRIMAL_PARALLELREGIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

/// Rewrites \p F's parallel regions and reductions as above; whether it
/// changed anything.
bool callParallelRegionsDirectly(llvm::Function &F);

} // namespace ad

#endif
