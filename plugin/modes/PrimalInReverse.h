//===- PrimalInReverse.h - Primal values in the reverse sweep ---*- C++ -*-===//
//
// A reverse block needs primal values: an operand a rule asked for, a branch
// condition, a shadow pointer. Each comes from the cheapest place that is
// correct there, in this order:
//   - used directly: computed once per call (outside loops, in a block that
//     dominates the return), in a gradient whose two sweeps are one function;
//   - a counted loop's induction variable, counted down in a slot (or a
//     stepped recurrence, a slot minus the step recomputed);
//   - a value that does not change inside the loops around the block, read
//     once into a slot where the reverse sweep enters the outermost of them;
//   - recomputed from values at hand (cheap arithmetic, loads of memory that
//     nothing overwrites, a phi as a select on the deciding branch), when
//     that tapes no more than taping the value itself;
//   - read back from the block's record on the tape (TapeRecords.h).
// Kept in one class because these are one decision, the min-cut between
// caching and recomputing: every rule asks it, and the answer for an
// operand depends on the answers for the operand's operands.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_PRIMALINREVERSE_H
#define AD_MODES_PRIMALINREVERSE_H

#include "modes/ReverseState.h"

namespace ad {

class AdjointSlots;
class ReverseControlFlow;
class TapeRecords;

class PrimalInReverse {
public:
  PrimalInReverse(ReverseState &S, TapeRecords &Records,
                  ReverseControlFlow &Flow, AdjointSlots &Adjoints);

  /// The primal value of \p Orig, usable in the reverse block being built.
  llvm::Value *primalInReverse(llvm::Value *Orig);
  /// primalInReverse(Orig) where that records nothing new: a value used
  /// directly or kept in a slot, or one the current reverse block already
  /// read from its record or recomputed; else nullptr.
  llvm::Value *primalAtHand(llvm::Value *Orig);
  /// The shadow of primal pointer \p Orig in the reverse block being built.
  llvm::Value *shadowInReverse(llvm::Value *Orig, llvm::Instruction *User);
  /// A forward-sweep value, read back from the current block's record
  /// unless it can be used directly.
  llvm::Value *fromForward(llvm::Value *Fwd, bool Direct);
  /// Recomputable without the tape and safe where it never ran (no loads).
  bool speculatableWithoutTape(llvm::Value *V, unsigned Depth);

  /// A counted loop's induction variable, as the reverse sweep counts it
  /// down in a slot.
  llvm::Value *inductionInReverse(const Recurrence &R);
  llvm::AllocaInst *inductionSlot(const Recurrence &R);
  /// Once every reverse block is built: sets each loop-invariant slot where
  /// the reverse sweep enters its loop.
  void initInvariantSlots();

  /// The primal's instructions that may write memory (built once).
  const llvm::SmallVectorImpl<llvm::Instruction *> &writers();
  /// DerivativeSignature::KeptArgs and UnwrittenArgs for the callee of
  /// \p I: pointer arguments into memory this function's derivative keeps
  /// unchanged from the call to the call's reverse, and into memory the call
  /// itself does not write.
  std::pair<uint64_t, uint64_t> keptArguments(llvm::CallBase &I);
  /// How many values the reverse sweep recomputes instead of taping.
  unsigned recomputedCount() const { return Recomputed; }

private:
  /// Outside loops and on every path: computed once per call. A gradient
  /// uses it directly; a split adjoint reads it from the return block's
  /// record, the first one its reverse sweep pops.
  bool isDirectlyAvailable(const llvm::Value *Orig) const;
  /// Constant, available at function level, or an induction variable.
  bool availableWithoutTape(const llvm::Value *V);

  // --- Recomputation (PrimalInReverse.cpp) ---
  /// \p Orig recomputed in the reverse block from values at hand, when it
  /// is cheap and that tapes no more than taping it; else nullptr.
  llvm::Value *recomputeInReverse(llvm::Value *Orig, unsigned Depth);
  /// recomputeInReverse from \p Orig's operands only.
  llvm::Value *recomputeFromOperands(llvm::Value *Orig, unsigned Depth);
  /// A phi of a block whose predecessor a branch decides, as a select.
  llvm::Value *recomputePhiInReverse(llvm::PHINode *Phi, unsigned Depth);
  /// The shadow \p Sh of GEP \p Orig, recomputed from its base's shadow.
  llvm::Value *recomputeShadowInReverse(llvm::Value *Orig, llvm::Value *Sh,
                                        llvm::Instruction *User);
  /// An operand of a value being recomputed: at hand, recomputed itself,
  /// or read from the current block's record.
  llvm::Value *operandInReverse(llvm::Value *Op, unsigned Depth);
  /// \p V can be recomputed in the reverse block from values at hand,
  /// without reading anything from the tape.
  bool recomputableWithoutTape(llvm::Value *V, unsigned Depth);
  bool recomputableUncached(llvm::Instruction *I, unsigned Depth);
  bool phiRecomputable(llvm::PHINode *Phi, unsigned Depth);
  /// The shadow of \p Orig likewise (a GEP of a shadow at hand).
  bool shadowRecomputableWithoutTape(llvm::Value *Orig, unsigned Depth);
  /// Inserts recomputed \p C among the current block's record loads and
  /// remembers it as the reverse value of forward value \p Fwd.
  llvm::Instruction *placeWithRecord(llvm::Instruction *C, llvm::Value *Fwd);

  // --- Memory that keeps its value until the reverse sweep ---
  /// A store of \p I's value, in its block, to memory that keeps it until
  /// the reverse sweep (ReloadVersioning.h); nullptr if none.
  llvm::StoreInst *keptStore(const llvm::Instruction &I);
  /// A split derivative of a region's body: \p X accesses a parameter whose
  /// writes the caller keeps (DerivativeSignature::KeptWriteArgs), and
  /// nothing later in X's iteration overwrites what X accessed.
  bool keptWrite(llvm::Instruction &X);
  /// Nothing in the primal can overwrite what \p L read, so a gradient
  /// (both sweeps in one call) may load it again in the reverse sweep.
  bool stillInMemory(const llvm::LoadInst &L);
  /// Where \p I's value was stored at an address that a later loop reads
  /// back as X and overwrites with X / D, with fast-math flags that allow
  /// rounding-level rewrites (reassoc, arcp), and nothing overwrites that
  /// quotient until the reverse sweep (crossentropy's probs[i] = exp(..),
  /// then probs[i] /= sum, which -ffast-math makes probs[i] * (1 / sum)). The
  /// reverse sweep then recomputes I as the stored quotient times D
  /// (InvertedQuotients.cpp).
  struct StoredQuotient {
    llvm::StoreInst *First;
    /// The division (or the multiplication by a reciprocal that the
    /// optimizer made of it), whose flags the inversion keeps.
    llvm::BinaryOperator *Quotient;
    /// The later loop's load of I's value.
    llvm::LoadInst *Reread;
    /// I is the quotient times Factor (or divided by it).
    llvm::Value *Factor;
    bool Multiply;
    /// The loops are in no other, so they run once: Factor, as the later
    /// loop sees it (the first loop's last value, say), is kept in a slot
    /// where the later loop reads I back.
    bool FactorAtExit;
  };
  std::optional<StoredQuotient> storedQuotient(const llvm::Instruction &I);
  std::optional<StoredQuotient> findStoredQuotient(const llvm::Instruction &I);
  /// \p I as storedQuotient allows, placed in the reverse block; null
  /// where it does not apply.
  llvm::Value *invertQuotient(llvm::Instruction &I, unsigned Depth);
  /// \p L may be loaded again in the reverse sweep: nothing in the primal
  /// can overwrite it, and nothing outside runs in between (a gradient, or
  /// a split derivative whose caller keeps that argument's memory).
  bool mayReload(const llvm::LoadInst &L);
  /// \p Ld reads memory of an argument the caller knows this function does
  /// not write (DerivativeSignature::UnwrittenArgs).
  bool unwrittenArgument(const llvm::LoadInst &Ld) const;

  llvm::DenseMap<const llvm::Instruction *, std::optional<StoredQuotient>>
      Quotients;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> FactorSlots;

  // --- Slots: loop invariants and induction variables
  // (PrimalInLoops.cpp) ---
  /// \p Orig is an induction variable of a counted loop that contains the
  /// block being reversed: its value is in a slot, no tape needed.
  const Recurrence *inductionInScope(const llvm::Value *Orig) const;
  /// \p Orig is a stepped recurrence (CountedLoops.h) of a counted loop that
  /// contains the block being reversed, and its step can be recomputed: its
  /// value is a slot minus the step.
  const SteppedRecurrence *steppedInScope(const llvm::Value *Orig);
  llvm::Value *steppedInReverse(const SteppedRecurrence &R);
  /// Sets the slots of the stepped recurrences the reverse sweep used, where
  /// it enters their loops and on their back edges.
  void initSteppedSlot(const SteppedRecurrence &R);
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
  llvm::Value *invariantInReverse(llvm::Value *Orig, bool Shadow,
                                  const llvm::Loop *L);

  ReverseState &S;
  TapeRecords &Records;
  ReverseControlFlow &Flow;
  AdjointSlots &Adjoints;

  static constexpr unsigned MaxRecomputeDepth = 8;
  unsigned Recomputed = 0;
  llvm::DenseMap<const llvm::Value *, bool> Recomputable;
  llvm::DenseMap<const llvm::Instruction *, bool> KeptWrites;
  llvm::BasicBlock *MemoBlock = nullptr;
  std::optional<llvm::SmallVector<llvm::Instruction *, 16>> Writers;
  llvm::DenseMap<const llvm::PHINode *, const Recurrence *> Inductions;
  llvm::DenseMap<const llvm::PHINode *, llvm::AllocaInst *> InductionSlots;
  struct SteppedInfo {
    const SteppedRecurrence *R;
    const llvm::Loop *L;
    /// Whether its step is recomputable; unset until first asked.
    std::optional<bool> Usable;
    llvm::AllocaInst *Slot = nullptr;
  };
  llvm::DenseMap<const llvm::PHINode *, SteppedInfo> Stepped;
  /// The stepped recurrences whose slots the reverse sweep reads.
  llvm::SmallVector<const llvm::PHINode *, 2> SteppedUsed;
  mutable llvm::DenseMap<std::pair<const llvm::LoadInst *, const llvm::Loop *>,
                         bool>
      InvariantLoads;
  struct InvariantSlot {
    llvm::Value *Orig;
    bool Shadow;
    const llvm::Loop *L;
    llvm::AllocaInst *Slot;
  };
  llvm::SmallVector<InvariantSlot, 8> Invariants;
  llvm::DenseMap<std::pair<const llvm::Value *, const llvm::Loop *>, unsigned>
      InvariantIndex;
};

/// Every time \p From runs, \p To runs after it before the iteration of
/// their innermost loop ends (or the function returns, outside loops).
bool alwaysFollows(const llvm::BasicBlock *From, const llvm::BasicBlock *To,
                   const llvm::LoopInfo &LI);
/// \p Access is to an alloca with lifetime markers, whose stack slot may
/// hold another alloca by the time the reverse sweep runs.
bool inDeadLocal(const llvm::Instruction &Access);

} // namespace ad

#endif
