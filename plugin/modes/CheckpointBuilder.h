//===- CheckpointBuilder.h - The split derivative of a checkpointed loop --===//
//
// A time loop outlined by primal/CheckpointLoops.h (f.ad.loop) is
// differentiated as a whole, not instruction by instruction: its augmented
// forward sweep runs the steps with the primal step, keeping the states a
// run-time schedule asks for (runtime/checkpoint/CheckpointSchedule.h); its
// adjoint hands the schedule the step's own split derivative, which runs
// one step recording it and reverses it, from each state in turn. The tape
// then holds one step's records at a time, and the saved states stay under
// the tape budget (AD_TAPE_BUDGET, -ad-tape-budget).
//
// What the callbacks share lives in one heap block, the environment: the
// schedule's loop descriptor, the tape, the carried values and their
// shadows (adjoints of carried floating-point values), the loop's inputs,
// their shadows, and the sums of the step adjoints of its active scalar
// inputs. The augmented forward sweep pushes its address on the tape; the
// adjoint pops it.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_CHECKPOINTBUILDER_H
#define AD_MODES_CHECKPOINTBUILDER_H

#include "modes/DerivativeCache.h"
#include "primal/CheckpointLoops.h"

namespace ad {

/// Builds the split derivative of checkpointed loop \p Loop for \p Sig into
/// \p Augmented and \p Adjoint; false (an error reported) where it cannot.
bool buildCheckpointedLoop(ADContext &Ctx, const DerivativeSignature &Sig,
                           const CheckpointedLoop &Loop,
                           llvm::Function &Augmented, llvm::Function &Adjoint);

/// The budget compiled in (-ad-tape-budget), in bytes.
uint64_t defaultTapeBudget();

} // namespace ad

#endif
