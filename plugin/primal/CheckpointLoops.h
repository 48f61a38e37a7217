//===- CheckpointLoops.h - Time loops outlined for checkpointing -*- C++
//-*-===//
//
// A time loop (a top-level loop of a gradient's function whose steps are
// loop nests) records every step on the tape: memory that grows with the
// number of steps. Where the memory one step writes is known when the step
// starts (stores at offsets its loops bound, from pointers the loop keeps
// or swaps), the loop can instead be run again from saved states
// (checkpointing, modes/CheckpointBuilder.h). This rewrite prepares such a
// loop in the gradient's canonical primal:
//
//   - its values carried from one step to the next (its header's phis) move
//     to a struct in memory; a pointer that the loop swaps among pointers
//     fixed before it becomes the index of the one it is;
//   - one step is outlined (f.ad.step: the struct and the loop's inputs in,
//     whether the loop goes on out);
//   - the loop becomes a call to f.ad.loop (trip count if known, the carried
//     values' first values, the inputs), which runs the steps; a split
//     derivative of it is the checkpointing one;
//   - f.ad.ranges (the struct, the inputs, whole, out) writes the ranges of
//     memory a state is made of: what the next step may write (an undo
//     record), or what any step may write (a snapshot).
//
// Loops this cannot bound are left as they are, and -Rpass-missed=ad says
// why; -Rpass=ad names the loops that may be checkpointed.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_CHECKPOINTLOOPS_H
#define AD_PRIMAL_CHECKPOINTLOOPS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/PassManager.h"
#include <optional>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

/// The functions a checkpointed loop was outlined into.
struct CheckpointedLoop {
  /// f.ad.loop(i64 trip count or -1, first values..., inputs...).
  llvm::Function *Loop = nullptr;
  /// f.ad.step(ptr carried, step inputs...) -> i1 (or i16) exit selector.
  llvm::Function *Step = nullptr;
  /// f.ad.ranges(ptr carried, inputs..., i64 whole, ptr out) -> i64.
  llvm::Function *Ranges = nullptr;
  /// The struct of carried values.
  llvm::StructType *Carried = nullptr;
  /// The step's parameter that takes the carried values' struct.
  unsigned CarriedArg = 0;
  /// Loop's parameters: 1 + FirstValues first values, then the inputs; the
  /// first StepInputs of the inputs are the step's (after the struct).
  unsigned FirstValues = 0, StepInputs = 0;
  /// The step's result that means "the loop goes on".
  uint64_t GoOn = 0;
  /// The carried fields Loop returns (the values used after the loop).
  llvm::SmallVector<unsigned, 2> OutFields;
  /// At most this many ranges from Ranges.
  unsigned MaxRanges = 0;
  /// "f: loop at file.c:12", for the run-time report.
  std::string Name;
};

struct CheckpointOutlining {
  /// The functions made (each loop's f.ad.loop before the others), for the
  /// cache to adopt.
  llvm::SmallVector<llvm::Function *, 6> Made;
  /// A rewrite gave up midway: \p F is in no defined state (and Made
  /// holds what was made for it).
  bool Failed = false;
};

/// Outlines the time loops of gradient primal \p F (a canonical clone of
/// \p User) that can be checkpointed.
/// \p Quiet: no remarks (a second clone of the same function).
CheckpointOutlining outlineCheckpointedLoops(llvm::Function &F,
                                             const llvm::Function &User,
                                             llvm::FunctionAnalysisManager &FAM,
                                             bool Quiet);

/// \p F is one step of a checkpointed loop (f.ad.step).
bool isCheckpointStep(const llvm::Function &F);

/// \p F is an f.ad.loop made by outlineCheckpointedLoops: its pieces.
std::optional<CheckpointedLoop> checkpointedLoop(const llvm::Function &F);

} // namespace ad

#endif
