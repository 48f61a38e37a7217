//===- TapeRecords.h - What each block keeps on the tape --------*- C++ -*-===//
//
// A reverse block reads the primal values it cannot get otherwise from a
// record that its forward block pushed on the tape when it finished: one
// record per executed block, LIFO, so loops of unknown trip count and
// recursion need nothing special. A record's layout is fixed per block and
// known at compile time, so it grows field by field while the reverse block
// is built (each read adds a field) and is emitted once every block is done:
// one push and a few stores before the forward block's terminator, one pop
// at the top of the reverse block. Kept apart from the builder because the
// layout (alignment, reservation ahead of loops, the -Rpass report of bytes
// taped) is one decision, independent of which values end up in it.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_TAPERECORDS_H
#define AD_MODES_TAPERECORDS_H

#include "modes/ReverseState.h"

namespace ad {

class TapeRecords {
public:
  explicit TapeRecords(ReverseState &S);
  ~TapeRecords();

  /// An empty record for every live block.
  void createRecords();
  /// Forward value \p Fwd as \p BB's reverse block has it already (read from
  /// the record or placed beside its loads); nullptr if not yet.
  llvm::Value *loaded(llvm::BasicBlock *BB, llvm::Value *Fwd) const;
  /// \p Fwd read back from \p BB's record: a new field unless it is one.
  llvm::Value *read(llvm::BasicBlock *BB, llvm::Value *Fwd);
  /// Inserts \p C among \p BB's record loads, at the top of its reverse
  /// block, and remembers it as the reverse value of forward value \p Fwd.
  llvm::Instruction *place(llvm::BasicBlock *BB, llvm::Instruction *C,
                           llvm::Value *Fwd);

  /// Once every reverse block is built: the pushes, stores and record sizes,
  /// or, for a record that lives on the stack (recordOnStack), its slots.
  void emitRecords();
  /// Before each loop nest whose iterations are bounded (TapeReservation.h),
  /// or once at the entry, reserves the bytes its records will take.
  void reserveTape();
  /// In an innermost loop with a trip count known at its preheader, whose
  /// only pushes are records of blocks that run on every iteration (no
  /// calls but to intrinsics and the math library, so no callee's records):
  /// the capacity is made sure of once per entry, for the whole loop, and
  /// the pushes do not check it. A record pushed per element (a softmax's
  /// exponentials) then costs two stores and no branch.
  void checkCapacityPerEntry();
  /// A gradient of straight-line code keeps nothing: no tape to create and
  /// free.
  void dropUnusedTape();
  /// -Rpass=ad: the bytes the tape holds per call and per loop iteration,
  /// and the \p Recomputed values that did not need it.
  void remarkTape(unsigned Recomputed);
  /// -Rpass-analysis=ad: what each field of a loop's records holds (its
  /// size, and the instruction that computed it, with its line), so that a
  /// user can see which values a loop's bytes per iteration are.
  void remarkFields();

private:
  /// The primal values one forward block saves for its reverse block:
  /// pushed as one record when the forward block ends, popped when the
  /// reverse block starts.
  struct BlockRecord {
    llvm::CallInst *Pop = nullptr; ///< In the reverse block; size set last.
    llvm::CallInst *Push = nullptr; ///< In the forward block, once emitted.
    /// Emitted as stack slots (recordOnStack); Pop is gone then.
    bool OnStack = false;
    llvm::Instruction *LastLoad = nullptr; ///< Where the next load goes.
    llvm::SmallVector<std::pair<llvm::Value *, uint64_t>, 8>
        Fields; ///< (forward value, offset)
    llvm::DenseMap<llvm::Value *, llvm::Value *> Loaded; ///< forward -> reverse
    uint64_t Size = 0;
  };
  /// Where the target reads misaligned data at full speed (x86, AArch64),
  /// records and fields are packed byte by byte: a loop whose record is a
  /// flag tapes 1 byte an iteration. Elsewhere records start 4-byte aligned
  /// and a field is aligned to its type, at most that.
  llvm::Align fieldAlign(const llvm::DataLayout &DL, llvm::Type *T) const;
  /// In a gradient (both sweeps in one function) a block on no cycle runs
  /// at most once per call, and so does its reverse block: its record needs
  /// no tape. Each field becomes a stack slot of the gradient, which SROA
  /// turns into registers, so a small gradient called in a loop need not
  /// touch the tape (its allocation, growth, per-thread cache and free) at
  /// all.
  bool recordOnStack(llvm::BasicBlock *BB, const BlockRecord &R);
  /// \p R's fields as stack slots: a store before \p Fwd's terminator, and
  /// the reverse block's loads read the slots instead of a popped record.
  void emitStackRecord(BlockRecord &R, llvm::BasicBlock *Fwd);
  /// A record is emitted (pushed, or on the stack) and holds something.
  static bool holdsBytes(const BlockRecord &R) {
    return (R.Pop || R.OnStack) && R.Size;
  }

  ReverseState &S;
  llvm::Align RecordAlign;
  llvm::DenseMap<llvm::BasicBlock *, BlockRecord *> Records;
  /// The primal's blocks on some cycle (a loop's, or an irreducible one's),
  /// computed on first use.
  std::optional<llvm::DenseSet<const llvm::BasicBlock *>> OnCycles;
};

} // namespace ad

#endif
