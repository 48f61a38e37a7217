//===- ReverseBuilder.h - Reverse mode: the adjoint of a function
//-----------===//
//
// Reverse mode runs the primal forward (the forward sweep), then walks the
// executed path backwards (the reverse sweep), accumulating adjoints.
//
// Forward sweep: a clone of the canonical primal, plus shadow pointers and
// the forward part of memory operations on shadows (pointer shadows stored,
// shadow allocations), plus calls to the callees' augmented forward sweeps.
//
// Reverse sweep: one reverse block per primal block, holding the adjoints of
// its instructions in reverse order. The path is recovered from the tape:
// each block with several predecessors records which one it came from. Each
// reverse block reads the primal values it needs from a record that its
// forward block pushed on the tape when it finished — one record per executed
// block, LIFO, so loops of unknown trip count and recursion need nothing
// special. In the combined (gradient) form, values computed exactly once on
// every path (outside loops, in blocks dominating the return) are used
// directly instead.
//
// Adjoints of SSA values live in stack slots of the reverse function (read
// and reset to zero when the reverse sweep reaches the definition); the
// optimizer promotes them to registers. Adjoints of memory live in shadows.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_REVERSEBUILDER_H
#define AD_MODES_REVERSEBUILDER_H

#include "analysis/ActivityAnalysis.h"
#include "analysis/MemoryEffects.h"
#include "modes/AnalysisFacts.h"
#include "primal/CountedLoops.h"
#include "primal/TapeReservation.h"
#include "modes/DerivativeCache.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ad {

class ReverseBuilder {
public:
  /// Combined when \p Forward == \p Reverse (a gradient), split otherwise
  /// (augmented forward sweep and adjoint).
  ReverseBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                 llvm::Function *Primal, llvm::Function *Forward,
                 llvm::Function *Reverse);
  ~ReverseBuilder();
  /// False after reporting an error.
  bool build();

private:
  // --- Forward sweep (ReverseBuilder.cpp) ---
  bool cloneForward();
  bool forwardVisit(llvm::Instruction &I);
  bool forwardShadowCopy(llvm::Instruction &I);
  bool finishShadowPhis();
  void createPredecessorIndices();

  // --- Reverse sweep structure (ReverseBuilder.cpp) ---
  void createReverseBlocks();
  bool buildReverseBlock(llvm::BasicBlock *BB);
  void emitReverseTerminator(llvm::BasicBlock *BB);
  void emitReverseEntryAndExit();
  void emitRecords();
  /// Before each loop nest whose iterations are bounded (TapeReservation.h),
  /// or once at the entry, reserves the bytes its records will take.
  void reserveTape();
  /// Where the target reads misaligned data at full speed (x86, AArch64),
  /// records and fields are packed byte by byte: a loop whose record is a
  /// flag tapes 1 byte an iteration. Elsewhere records start 4-byte aligned
  /// and a field is aligned to its type, at most that.
  llvm::Align RecordAlign;
  llvm::Align fieldAlign(const llvm::DataLayout &DL, llvm::Type *T) const;
  void dropUnusedTape();
  /// -Rpass=ad: the bytes the tape holds per call and per loop iteration.
  void remarkTape();
  unsigned Recomputed = 0;

  // --- Adjoints of instructions (ReverseInstructions.cpp) ---
  bool reverseVisit(llvm::Instruction &I);
  bool reverseStructural(llvm::Instruction &I, llvm::Value *DY);

  // --- Calls, in both sweeps (ReverseCalls.cpp): what the callee's row
  // (rules/CallRows.h) says, through ForwardSweepCalls and AdjointCalls ---
  friend class ForwardSweepCalls;
  friend class AdjointCalls;
  bool forwardCall(llvm::CallBase &I);
  bool reverseCall(llvm::CallBase &I, llvm::Value *DY);
  /// The rows of calls to functions whose bodies are differentiated: the
  /// callee's augmented forward sweep, and its adjoint.
  bool forwardCallToDefined(llvm::CallBase &I);
  bool reverseCallToDefined(llvm::CallBase &I);
  /// The split derivative a call to a defined function needs (the same in
  /// the forward and the reverse sweep); nullopt when nothing of the call is
  /// differentiated.
  std::optional<DerivativeSignature> calleeSignature(llvm::CallBase &I);
  llvm::DenseMap<const llvm::CallBase *, std::optional<DerivativeSignature>>
      CalleeSignatures;
  /// DerivativeSignature::KeptArgs and UnwrittenArgs for the callee of
  /// \p I: pointer arguments into memory this function's derivative keeps
  /// unchanged from the call to the call's reverse, and into memory the call
  /// itself does not write.
  std::pair<uint64_t, uint64_t> keptArguments(llvm::CallBase &I);
  bool reverseStore(llvm::StoreInst &I);

  // --- Values in the reverse sweep (ReverseValues.cpp; loops and joins
  // without the tape: ReverseControlFlow.cpp) ---
  /// The primal value of \p Orig, usable in the reverse block being built.
  llvm::Value *primalInReverse(llvm::Value *Orig);
  /// The shadow of primal pointer \p Orig in the reverse block being built.
  llvm::Value *shadowInReverse(llvm::Value *Orig, llvm::Instruction *User);
  /// A forward-sweep value, read back from the current block's record
  /// unless it can be used directly.
  llvm::Value *fromForward(llvm::Value *Fwd, bool Direct);
  /// \p Orig recomputed in the reverse block from values at hand, when it
  /// is cheap and that tapes no more than taping it; else nullptr.
  llvm::Value *recomputeInReverse(llvm::Value *Orig, unsigned Depth);
  /// recomputeInReverse from \p Orig's operands only.
  llvm::Value *recomputeFromOperands(llvm::Value *Orig, unsigned Depth);
  /// A store of \p I's value, in its block, to memory that keeps it until
  /// the reverse sweep (ReloadVersioning.h); nullptr if none.
  llvm::StoreInst *keptStore(const llvm::Instruction &I) const;
  /// \p V can be recomputed in the reverse block from values at hand,
  /// without reading anything from the tape.
  bool recomputableWithoutTape(llvm::Value *V, unsigned Depth);
  bool recomputableUncached(llvm::Instruction *I, unsigned Depth);
  bool phiRecomputable(llvm::PHINode *Phi, unsigned Depth);
  /// Recomputable without the tape and safe where it never ran (no loads).
  bool speculatableWithoutTape(llvm::Value *V, unsigned Depth);
  /// The shadow of \p Orig likewise (a GEP of a shadow at hand).
  bool shadowRecomputableWithoutTape(llvm::Value *Orig, unsigned Depth);
  static constexpr unsigned MaxRecomputeDepth = 8;
  llvm::DenseMap<const llvm::Value *, bool> Recomputable;
  llvm::BasicBlock *MemoBlock = nullptr;
  /// A phi of a block whose predecessor a branch decides, as a select.
  llvm::Value *recomputePhiInReverse(llvm::PHINode *Phi, unsigned Depth);
  /// Inserts recomputed \p C among the current block's record loads and
  /// remembers it as the reverse value of forward value \p Fwd.
  llvm::Instruction *placeWithRecord(llvm::Instruction *C, llvm::Value *Fwd);
  /// Nothing in the primal can overwrite what \p L read, so a gradient
  /// (both sweeps in one call) may load it again in the reverse sweep.
  bool stillInMemory(const llvm::LoadInst &L);
  /// \p L may be loaded again in the reverse sweep: nothing in the primal
  /// can overwrite it, and nothing outside runs in between (a gradient, or
  /// a split derivative whose caller keeps that argument's memory).
  bool mayReload(const llvm::LoadInst &L);
  /// The primal's instructions that may write memory (built once).
  const llvm::SmallVectorImpl<llvm::Instruction *> &writers();
  std::optional<llvm::SmallVector<llvm::Instruction *, 16>> Writers;
  /// \p Orig is an induction variable of a counted loop that contains the
  /// block being reversed: its value is in a slot, no tape needed.
  const Recurrence *inductionInScope(const llvm::Value *Orig) const;
  llvm::Value *inductionInReverse(const Recurrence &R);
  llvm::AllocaInst *inductionSlot(const Recurrence &R);
  /// An operand of a value being recomputed: at hand, recomputed itself,
  /// or read from the current block's record.
  llvm::Value *operandInReverse(llvm::Value *Op, unsigned Depth);
  /// Constant, available at function level, or an induction variable.
  bool availableWithoutTape(const llvm::Value *V) const;
  /// On the reverse edge into \p To from \p From (the reverse of a loop
  /// exit), sets the slots of the counted loops it enters.
  void enterCountedLoops(llvm::BasicBlock *From, llvm::BasicBlock *To);
  /// For a block entered from one of two predecessors, the conditional
  /// branch of its immediate dominator whose direction decides which one
  /// (an if-then-else or a guard): the reverse sweep recomputes the
  /// condition instead of reading the predecessor's index from the tape.
  struct DecidingBranch {
    llvm::Value *Cond;
    unsigned IfTrue, IfFalse; ///< Indices into Preds[BB].
  };
  std::optional<DecidingBranch> decidingBranch(llvm::BasicBlock *BB);
  /// Otherwise, for any number of predecessors: replays the branches from
  /// the immediate dominator (see the .cpp). False, emitting nothing, when
  /// some condition on the way needs the tape.
  bool emitReplayedJoin(llvm::BasicBlock *J,
                        llvm::function_ref<void(llvm::BasicBlock *)> EmitEdge);
  llvm::DenseMap<llvm::BasicBlock *, std::optional<DecidingBranch>> Deciding;
  /// Values defined outside the loops around the block being reversed are
  /// the same in every iteration, and so are loads inside them from an
  /// address computed outside that nothing in the loop writes: instead of
  /// recording them per iteration, the reverse sweep reads them once where
  /// it enters the outermost such loop (the reverse of its exit) into a
  /// slot.
  const llvm::Loop *invariantLoop(const llvm::Value *Orig) const;
  /// \p Ld, inside \p L, loads the same value in every iteration of \p L,
  /// and has been executed whenever \p L exits.
  bool invariantLoad(const llvm::LoadInst &Ld, const llvm::Loop &L) const;
  /// \p Ld reads memory of an argument the caller knows this function does
  /// not write (DerivativeSignature::UnwrittenArgs).
  bool unwrittenArgument(const llvm::LoadInst &Ld) const;
  mutable llvm::DenseMap<std::pair<const llvm::LoadInst *, const llvm::Loop *>,
                         bool>
      InvariantLoads;
  llvm::Value *invariantInReverse(llvm::Value *Orig, bool Shadow,
                                  const llvm::Loop *L);
  void initInvariantSlots();
  struct InvariantSlot {
    llvm::Value *Orig;
    bool Shadow;
    const llvm::Loop *L;
    llvm::AllocaInst *Slot;
  };
  llvm::SmallVector<InvariantSlot, 8> Invariants;
  llvm::DenseMap<std::pair<const llvm::Value *, const llvm::Loop *>, unsigned>
      InvariantIndex;
  /// Where the reverse sweep enters each loop: (block it comes from, block
  /// holding the edge's code).
  llvm::DenseMap<const llvm::Loop *,
                 llvm::SmallVector<std::pair<llvm::BasicBlock *,
                                             llvm::BasicBlock *>, 2>>
      LoopEntries;
  /// Where a counted loop's counter started, set where the reverse sweep
  /// enters the loop.
  llvm::AllocaInst *startSlot(const CountedLoop &CL);
  llvm::DenseMap<const llvm::BasicBlock *, llvm::AllocaInst *> StartSlots;
  /// The reverse terminator of a counted loop's header.
  void emitCountedHeaderTerminator(const CountedLoop &CL,
                                   llvm::ArrayRef<std::pair<llvm::PHINode *,
                                                            llvm::Value *>>
                                       PhiAdjoints);
  /// The shadow \p S of GEP \p Orig, recomputed from its base's shadow.
  llvm::Value *recomputeShadowInReverse(llvm::Value *Orig, llvm::Value *S,
                                        llvm::Instruction *User);
  /// Outside loops and on every path: computed once per call. A gradient
  /// uses it directly; a split adjoint reads it from the return block's
  /// record, the first one its reverse sweep pops.
  bool isDirectlyAvailable(const llvm::Value *Orig) const;
  /// The shadow of a primal pointer in the forward sweep.
  llvm::Value *shadowInForward(llvm::Value *Orig, llvm::Instruction *User);
  llvm::Value *cloneOf(llvm::Value *Orig) {
    return llvm::isa<llvm::Constant>(Orig)
               ? Orig
               : static_cast<llvm::Value *>(VMap[Orig]);
  }

  // --- Adjoint slots ---
  llvm::AllocaInst *slotFor(llvm::Value *Orig);
  /// A fresh stack slot of the reverse function, not tied to any value.
  llvm::AllocaInst *scratchSlot(llvm::Type *T, const llvm::Twine &Name);
  /// Reads the adjoint of Orig and resets it to zero.
  llvm::Value *takeAdjoint(llvm::Value *Orig);
  /// Adds Delta to the adjoint of Orig (nothing when Orig is not varied).
  void addAdjoint(llvm::Value *Orig, llvm::Value *Delta);

  ADContext &Ctx;
  const DerivativeSignature &Sig;
  llvm::Function *Primal, *FwdF, *RevF;
  bool Combined;
  ActivityAnalysis AA;
  AnalysisFacts Facts;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  const CountedLoopMap &Counted;
  const IterationBoundMap &Bounds;
  llvm::DenseMap<const llvm::PHINode *, const Recurrence *> Inductions;
  llvm::DenseMap<const llvm::PHINode *, llvm::AllocaInst *> InductionSlots;
  llvm::ValueToValueMapTy VMap;
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Shadows;
  /// Shadows allocated on the heap, freed when the reverse sweep reaches the
  /// allocation.
  llvm::DenseSet<const llvm::Value *> HeapShadows;
  llvm::SmallVector<llvm::PHINode *, 8> PendingShadowPhis;
  llvm::BasicBlock *ReturnBlock = nullptr;
  llvm::Value *TapeFwd = nullptr, *TapeRev = nullptr;

  /// The primal values one forward block saves for its reverse block:
  /// pushed as one record when the forward block ends, popped when the
  /// reverse block starts.
  struct BlockRecord {
    llvm::CallInst *Pop = nullptr; ///< In the reverse block; size set last.
    llvm::Instruction *LastLoad = nullptr; ///< Where the next load goes.
    llvm::SmallVector<std::pair<llvm::Value *, uint64_t>, 8>
        Fields;                                    ///< (forward value, offset)
    llvm::DenseMap<llvm::Value *, llvm::Value *> Loaded; ///< forward -> reverse
    uint64_t Size = 0;
  };
  llvm::DenseMap<llvm::BasicBlock *, BlockRecord *> Records;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> RevBlocks;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      Preds;
  llvm::DenseMap<llvm::BasicBlock *, llvm::PHINode *> PredIndex;
  llvm::SmallVector<llvm::BasicBlock *, 16> LiveBlocks;
  llvm::BasicBlock *RevEntry = nullptr, *RevExit = nullptr;
  llvm::Instruction *SlotInsertPt = nullptr;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> Slots;
  llvm::BasicBlock *CurBlock = nullptr; ///< Primal block being reversed.
  llvm::IRBuilder<> B;
};

} // namespace ad

#endif
