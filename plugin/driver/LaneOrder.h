//===- LaneOrder.h - Vector loops that run downward without lane reversals -===//
//
// A reverse sweep runs its loops downward. Vectorized, a downward loop loads
// four consecutive elements and reverses their lanes (a shuffle) so that
// lane k holds iteration i - k, and reverses them back before each store: a
// layer norm's reverse loop spends a shuffle on every vector it loads or
// stores, which the handwritten backward, running upward, does not. When
// the lanes never meet (each lane computed apart from the others, as
// elementwise arithmetic is), the loop computes the same lanes in memory
// order just as well: every reversal in it cancels. This rewrite decides,
// per group of values that meet, which order each value is computed in,
// and drops the reversals that order makes pointless; a value the order
// changes that is used outside the loop is reversed back once, after the
// loop, so the function computes exactly what it did, bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_LANEORDER_H
#define AD_DRIVER_LANEORDER_H

#include "llvm/IR/PassManager.h"

namespace ad {

/// In each single-block innermost loop, removes the lane reversals that
/// cancel when its elementwise vector values are computed in memory order.
class LaneOrderPass : public llvm::PassInfoMixin<LaneOrderPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace ad

#endif
