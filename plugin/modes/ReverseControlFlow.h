//===- ReverseControlFlow.h - Reverse mode: the way back --------*- C++ -*-===//
//
// The reverse sweep walks the executed path backwards: one reverse block per
// primal block, and from each the jump to the reverse block of the
// predecessor it was entered from. Finding that predecessor is this class's
// concern, cheapest first:
//   - one predecessor: a plain branch;
//   - a counted loop's header: the counter, back at its start, says the loop
//     was entered from the preheader, otherwise from the latch;
//   - a join whose predecessor one branch decides (if-then-else, a guard):
//     that branch's condition, recomputed;
//   - a join reached through several branches: the branches replayed;
//   - otherwise: the predecessor index the forward sweep recorded (a phi
//     `from` in the forward block, a field of its record).
// It also creates the reverse blocks, where the sweep starts (seeding the
// returned value's adjoint) and where it ends (returning the arguments'
// adjoints), and, on each edge into a loop, what the loop's slots start
// from. Apart from PrimalInReverse, which asks it which branch decides a
// join and where loops are entered, and which it asks for the conditions.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_REVERSECONTROLFLOW_H
#define AD_MODES_REVERSECONTROLFLOW_H

#include "modes/ReverseState.h"
#include "llvm/ADT/MapVector.h"

namespace ad {

class AdjointSlots;
class PrimalInReverse;

class ReverseControlFlow {
public:
  ReverseControlFlow(ReverseState &S, PrimalInReverse &Values,
                     AdjointSlots &Adjoints)
      : S(S), Values(Values), Adjoints(Adjoints) {}

  /// In the forward sweep: the live predecessors of each block, and, where
  /// there are several, a phi `from` numbering them.
  void createPredecessorIndices();
  /// One empty reverse block per live block, and the exit; the entry too
  /// in a split adjoint.
  void createReverseBlocks();
  /// The end of \p BB's reverse block: its phis' adjoints handed to their
  /// incoming values, and the jump to the predecessor's reverse block.
  void emitReverseTerminator(llvm::BasicBlock *BB);
  /// Where the reverse sweep starts (after the primal's return) and ends.
  void emitReverseEntryAndExit();

  /// For a block entered from one of two predecessors, the conditional
  /// branch of its immediate dominator whose direction decides which one
  /// (an if-then-else or a guard): the reverse sweep recomputes the
  /// condition instead of reading the predecessor's index from the tape.
  struct DecidingBranch {
    llvm::Value *Cond;
    unsigned IfTrue, IfFalse; ///< Indices into ReverseState::Preds[BB].
  };
  std::optional<DecidingBranch> decidingBranch(llvm::BasicBlock *BB);
  /// Where the reverse sweep enters loop \p L: (block it comes from, block
  /// holding the edge's code).
  llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, 2>
  loopEntries(const llvm::Loop *L) const {
    return LoopEntries.lookup(L);
  }
  /// The block holding the reverse back edge of counted loop \p Header
  /// (from an iteration to the one before), once built; else nullptr.
  llvm::BasicBlock *backEdge(const llvm::BasicBlock *Header) const {
    return BackEdges.lookup(Header);
  }

private:
  /// Otherwise, for any number of predecessors: replays the branches from
  /// the immediate dominator (see the .cpp). False, emitting nothing, when
  /// some condition on the way needs the tape.
  bool emitReplayedJoin(llvm::BasicBlock *J,
                        llvm::function_ref<void(llvm::BasicBlock *)> EmitEdge);
  /// One block of a replayed region: its branch condition and successors
  /// (to, via: the exiting block of a loop stepped over, else the block).
  struct ReplayStep;
  /// The branches from \p J's immediate dominator (first in \p Plan) to J;
  /// false when some condition on the way needs the tape, or the region has
  /// a cycle or is too large.
  bool planReplay(llvm::BasicBlock *J,
                  llvm::MapVector<llvm::BasicBlock *, ReplayStep> &Plan);
  /// On the reverse edge into \p To from \p From (the reverse of a loop
  /// exit), sets the slots of the counted loops it enters.
  void enterCountedLoops(llvm::BasicBlock *From, llvm::BasicBlock *To);
  /// Where a counted loop's counter started, set where the reverse sweep
  /// enters the loop.
  llvm::AllocaInst *startSlot(const CountedLoop &CL);
  /// The reverse terminator of a counted loop's header.
  void emitCountedHeaderTerminator(
      const CountedLoop &CL,
      llvm::ArrayRef<std::pair<llvm::PHINode *, llvm::Value *>> PhiAdjoints);

  ReverseState &S;
  PrimalInReverse &Values;
  AdjointSlots &Adjoints;
  llvm::DenseMap<llvm::BasicBlock *, llvm::PHINode *> PredIndex;
  llvm::BasicBlock *RevEntry = nullptr, *RevExit = nullptr;
  llvm::DenseMap<llvm::BasicBlock *, std::optional<DecidingBranch>> Deciding;
  llvm::DenseMap<
      const llvm::Loop *,
      llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, 2>>
      LoopEntries;
  llvm::DenseMap<const llvm::BasicBlock *, llvm::AllocaInst *> StartSlots;
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> BackEdges;
};

} // namespace ad

#endif
