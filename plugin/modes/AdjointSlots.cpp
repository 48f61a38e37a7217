//===- AdjointSlots.cpp - Reverse mode: where adjoints of values live -----===//
//
// See AdjointSlots.h. Every slot is created at one place at the top of the
// reverse function (after the tape in a gradient, after a marker in a split
// adjoint), so it dominates every reverse block whatever order they are
// built in.
//
//===----------------------------------------------------------------------===//
#include "modes/AdjointSlots.h"
#include "core/IRHelpers.h"

using namespace llvm;

namespace ad {

AllocaInst *AdjointSlots::slotFor(Value *Orig) {
  auto [It, Inserted] = Slots.try_emplace(Orig, nullptr);
  if (Inserted) {
    IRBuilder<> SB(SlotInsertPt->getParent(),
                   std::next(SlotInsertPt->getIterator()));
    Type *T = S.AA.derivativeType(Orig);
    It->second = SB.CreateAlloca(T, nullptr, Orig->getName() + ".adj");
    SB.CreateStore(adjointZero(T), It->second);
  }
  return It->second;
}

AllocaInst *AdjointSlots::scratchSlot(Type *T, const Twine &Name) {
  IRBuilder<> SB(SlotInsertPt->getParent(),
                 std::next(SlotInsertPt->getIterator()));
  return SB.CreateAlloca(T, nullptr, Name);
}

Value *AdjointSlots::takeAdjoint(Value *Orig) {
  Type *T = S.AA.derivativeType(Orig);
  if (!S.AA.isVaried(Orig))
    return Constant::getNullValue(T);
  AllocaInst *Slot = slotFor(Orig);
  Value *D = S.B.CreateLoad(T, Slot, Orig->getName() + ".d");
  S.B.CreateStore(adjointZero(T), Slot);
  return D;
}

void AdjointSlots::addAdjoint(Value *Orig, Value *Delta) {
  if (!S.AA.isVaried(Orig) || isa<Constant>(Orig))
    return;
  if (isZeroDerivative(Delta))
    return;
  accumulateIntoSlot(S.B, slotFor(Orig), Delta);
}

} // namespace ad
