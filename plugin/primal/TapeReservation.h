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
// The reservation is a hint: pushes still check the capacity, so a count
// that is too small (or an allocation that fails) costs a later growth, not
// correctness. It is also never more than the nest records (but for records
// in data-dependent branches, TapeRecords::reserveTape): only exact trip
// counts are used (where ScalarEvolution knows only a bound, such as the
// range of a type for an exit tested against a value reloaded every
// iteration, the loop is not counted); an inner loop counts where it starts
// on every iteration of its parent, or where conditions that do not change
// in the nest decide whether it starts (an indicator, 0 or 1 per
// iteration), or behind a guard of its own (its count is then clamped at
// zero where negative in the loop's own integer type, the trip count of
// `for (j = 0; j < m; j++)` with m < 0); an inner count that changes with
// the enclosing iterations (a triangular nest) is summed over them in
// closed form, in an integer type wide enough that no sum wraps. Products
// of trip counts saturate at 2^64 - 1, which __ad_tape_reserve ignores.
// docs/internals/REVERSE.md ("Tape reservation") has the rules.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_TAPERESERVATION_H
#define AD_MODES_TAPERESERVATION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class IRBuilderBase;
class Twine;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace ad {

/// How many times a counted loop's blocks run per entry into its outermost
/// loop, as i64s computed at \p At: the earliest point outside loops from
/// which the nest always runs and where the counts can be computed. Both
/// saturate at 2^64 - 1.
struct IterationBound {
  llvm::Instruction *At = nullptr;
  const llvm::BasicBlock *Header = nullptr;
  /// The header's runs.
  llvm::Value *Iterations = nullptr;
  /// Where only the header exits: the runs of the loop's other blocks, one
  /// per backedge taken; null elsewhere.
  llvm::Value *Completed = nullptr;
  /// The runs of blocks that do not run on every iteration but whose runs
  /// are known: decided by conditions that do not change while the nest
  /// runs, or summed in closed form.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::Value *> InBranches;
  /// For an innermost loop with an exact trip count: the header's runs per
  /// entry into the loop, computed at the end of its preheader (for any such
  /// loop, counted nest or not: a bound with only this is no reservation).
  /// Pushes of records that run on every iteration may then check the
  /// capacity once per entry (TapeRecords::checkCapacityPerEntry).
  llvm::Value *PerEntry = nullptr;
  /// Where only the header exits: the runs per entry of the loop's other
  /// blocks, one per backedge taken; null elsewhere.
  llvm::Value *CompletedPerEntry = nullptr;

  /// At most how many times \p BB, a block of an innermost loop that runs
  /// on every iteration, runs per entry into the loop.
  llvm::Value *runsPerEntry(const llvm::BasicBlock *BB) const {
    return BB != Header && CompletedPerEntry ? CompletedPerEntry : PerEntry;
  }

  /// At most how many times \p BB, a block of the loop (not of a subloop)
  /// that runs on every iteration, runs.
  llvm::Value *runsOf(const llvm::BasicBlock *BB) const {
    return BB != Header && Completed ? Completed : Iterations;
  }
};

/// Iteration counts by loop header; a loop that is not counted has none.
using IterationBoundMap =
    llvm::DenseMap<const llvm::BasicBlock *, IterationBound>;

/// Computes the iteration bounds of \p F's loops and inserts them into \p F
/// (a canonical primal, in loop-simplify form).
IterationBoundMap
materializeIterationBounds(llvm::Function &F,
                           llvm::FunctionAnalysisManager &FAM);

/// X * Y, unsigned, or all ones where that overflows.
llvm::Value *saturatingMul(llvm::IRBuilderBase &B, llvm::Value *X,
                           llvm::Value *Y, const llvm::Twine &Name = "");

} // namespace ad

#endif
