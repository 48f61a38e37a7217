//===- RegionFootprint.h - The memory a parallel region reads and writes -===//
//
// To the function that forks it, a parallel region is one call (see
// core/ParallelRegionCalls.h) that reads and writes through the pointers it
// captured. Alias analysis sees a call that may write anything its
// arguments reach; a gradient then tapes every value the region loads,
// once per iteration of its innermost loop, even where the region reads
// one part of a buffer and writes another (a GPT-2 layer's input and output
// slices of one activation buffer).
//
// The footprint says which bytes: per pointer parameter, the range of
// offsets the region loads from and the range it stores to, over all its
// threads (RegionRanges.h), and whether it may write anywhere else (a
// global, memory a callee reaches). The caller's run-time checks
// (primal/ReloadVersioning.cpp) compare those ranges with what the rest of
// the function writes, as they compare its own loops' accesses.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_REGIONFOOTPRINT_H
#define AD_ANALYSIS_REGIONFOOTPRINT_H

#include "analysis/RegionRanges.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Argument;
class Function;
class LoopInfo;
} // namespace llvm

namespace ad {

/// What a region does through one pointer parameter: the bytes [Lo, Hi)
/// from the pointer it may load (Reads) and store (Writes), none if it does
/// not; Unbounded when it does in a way no range here describes.
struct ParameterFootprint {
  unsigned Arg;
  std::optional<OffsetRange> Reads, Writes;
  bool ReadsUnbounded = false, WritesUnbounded = false;
};

struct RegionFootprint {
  llvm::SmallVector<ParameterFootprint, 8> Parameters;
  /// The region may write memory that no parameter points into.
  bool WritesElsewhere = false;
};

/// Whether pointer parameter \p Arg of a region body reaches nothing but the
/// addresses of loads, stores, atomics and memory intrinsics in the body
/// itself: no callee sees it (none frees it), no memory holds it.
bool staysInRegion(const llvm::Argument &Arg);

/// The footprint of OpenMP region body \p Body.
RegionFootprint regionFootprint(llvm::Function &Body, llvm::ScalarEvolution &SE,
                                llvm::LoopInfo &LI);

} // namespace ad

#endif
