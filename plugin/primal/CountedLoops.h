//===- CountedLoops.h - Loops the reverse sweep can run without a tape ----===//
//
// A loop whose iterations ScalarEvolution can count is reversed by counting
// back down instead of by reading which predecessor each header execution
// came from. For such a loop the canonical primal gets, in its preheader,
// the value every induction variable (an add recurrence {start,+,step} with
// a constant step, no self-wrap) has in the loop's last iteration. The
// reverse sweep keeps each induction variable in a stack slot: set to that
// last value where it enters the loop (from the exit), decremented by the
// step on each back edge, and the loop is left when the counter is back at
// its start. Addresses computed from induction variables are then recomputed
// in the reverse sweep instead of taped, and a loop costs no tape per
// iteration unless its body needs values that are not recomputable. A
// running index that each iteration advances by a recomputable amount (a
// stepped recurrence, below) gets its step and final value inserted too, and
// the reverse sweep subtracts its way back down the same way.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_COUNTEDLOOPS_H
#define AD_MODES_COUNTEDLOOPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class Constant;
class Function;
class PHINode;
class Value;
} // namespace llvm

namespace ad {

/// One induction variable of a counted loop.
struct Recurrence {
  llvm::PHINode *Phi = nullptr;
  llvm::Value *Start = nullptr;   ///< Incoming value from the preheader.
  llvm::Constant *Step = nullptr; ///< Integer, or byte offset for pointers.
  llvm::Value *Last = nullptr;    ///< Value in the last iteration.
};

/// A header phi of a counted loop that is no induction variable, but to
/// which every iteration adds a value the reverse sweep can recompute: a
/// running index advanced by an inner loop's trip count (L in a packed
/// triangle's `for i: for j > i: ... l[L++]`). The reverse sweep keeps the
/// value the phi is about to take next in a slot, set to Final where it
/// enters the loop; within an iteration the phi is the slot minus Step,
/// which is the previous iteration's next value.
struct SteppedRecurrence {
  llvm::PHINode *Phi = nullptr;
  llvm::Value *Step = nullptr;  ///< In the latch: the latch value minus Phi.
  llvm::Value *Final = nullptr; ///< In the exit block: the last latch value.
};

struct CountedLoop {
  llvm::BasicBlock *Header = nullptr, *Preheader = nullptr, *Latch = nullptr;
  /// IVs[0] is the counter whose return to its start ends the reverse loop.
  llvm::SmallVector<Recurrence, 2> IVs;
  llvm::SmallVector<SteppedRecurrence, 1> Stepped;
};

/// Counted loops by header.
using CountedLoopMap = llvm::DenseMap<const llvm::BasicBlock *, CountedLoop>;

/// Finds the counted loops of \p F (in loop-simplify form) and inserts the
/// last values of their induction variables into their preheaders.
CountedLoopMap materializeCountedLoops(llvm::Function &F,
                                       llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
