//===- AdjointSlots.h - Where adjoints of values live -----------*- C++ -*-===//
//
// The adjoint of an SSA value lives in a stack slot of the reverse function,
// created zeroed at its first use, added to by each use's adjoint, and read
// and reset to zero when the reverse sweep reaches the definition (so that a
// loop's next iteration, reversed, starts from zero again). Slots rather than
// phis because the reverse control flow is only known as it is built; the
// optimizer promotes them to registers. Adjoints of memory live in shadows,
// not here.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_ADJOINTSLOTS_H
#define AD_MODES_ADJOINTSLOTS_H

#include "modes/ReverseState.h"

namespace ad {

class AdjointSlots {
public:
  explicit AdjointSlots(ReverseState &S) : S(S) {}

  /// Slots are created right after \p At, before any code that uses them.
  void placeSlotsAfter(llvm::Instruction *At) { SlotInsertPt = At; }
  /// Reads the adjoint of \p Orig and resets it to zero.
  llvm::Value *takeAdjoint(llvm::Value *Orig);
  /// Adds \p Delta to the adjoint of \p Orig (nothing when \p Orig is not
  /// varied).
  void addAdjoint(llvm::Value *Orig, llvm::Value *Delta);
  /// A fresh stack slot of the reverse function, not tied to any value.
  llvm::AllocaInst *scratchSlot(llvm::Type *T, const llvm::Twine &Name);

private:
  llvm::AllocaInst *slotFor(llvm::Value *Orig);

  ReverseState &S;
  llvm::Instruction *SlotInsertPt = nullptr;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> Slots;
};

} // namespace ad

#endif
