//===- TapeReservation.h - How much tape a loop nest will push ------------===//
//
// The tape is one buffer that grows on demand. Grown by doubling as records
// arrive, a large tape is reallocated many times and its pages are touched
// fresh after every move; worse, a buffer that ends up larger than the
// allocator's mmap threshold is mapped and unmapped on every call. Where
// ScalarEvolution bounds a loop nest's trip counts before the nest runs, the
// forward sweep instead reserves, before the nest, the bytes the nest's
// records will take: one allocation of the right size per nest.
//
// The reservation is a hint: pushes still check the capacity, so a bound
// that is too small (or an allocation that fails) costs a later growth, not
// correctness. Bounds are therefore allowed to be loose: a loop that is not
// entered (its guard fails) still counts as running its trip count, clamped
// at zero when that count is negative in the loop's own integer type (the
// trip count of `for (j = 0; j < m; j++)` with m < 0).
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_TAPERESERVATION_H
#define AD_MODES_TAPERESERVATION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace ad {

/// At most how many iterations a loop runs per entry into its outermost
/// loop, as an i64 computed at \p At: the earliest point outside loops from
/// which the nest always runs and where the bound can be computed.
struct IterationBound {
  llvm::Instruction *At = nullptr;
  llvm::Value *Iterations = nullptr;
};

/// Iteration bounds by loop header; a nest with any unbounded loop has none.
using IterationBoundMap =
    llvm::DenseMap<const llvm::BasicBlock *, IterationBound>;

/// Computes the iteration bounds of \p F's loops and inserts them into \p F
/// (a canonical primal, in loop-simplify form).
IterationBoundMap
materializeIterationBounds(llvm::Function &F,
                           llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
