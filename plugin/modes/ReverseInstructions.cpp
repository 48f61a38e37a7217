//===- ReverseInstructions.cpp - The adjoint of each instruction ----------===//
//
// Called for each primal instruction, last to first, with the builder at the
// end of its reverse block. Each visitor reads the adjoint of the result
// (resetting it) and adds the contributions to its operands' adjoints or to
// shadow memory.
//
//===----------------------------------------------------------------------===//
#include "analysis/ThreadSharing.h"
#include "analysis/TypeAnalysis.h"
#include "core/IRHelpers.h"
#include "modes/ConstantShadows.h"
#include "modes/ReverseBuilder.h"
#include "modes/ReverseCalls.h"
#include "rules/AtomicUpdates.h"
#include "rules/CallRows.h"
#include "rules/MathCalls.h"
#include "rules/MathRules.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

bool ReverseBuilder::reverseVisit(Instruction &I) {
  IRBuilder<> &B = S.B;
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return reverseStore(*SI);
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return reverseAtomicUpdate(*RMW);
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    Value *DY = nullptr;
    if (S.AA.isVaried(&I) && rowOf(*Call).Flow == DerivativeFlow::ToResult)
      DY = Adjoints.takeAdjoint(&I);
    return reverseCall(*Call, DY);
  }
  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    if (S.HeapShadows.count(AI))
      B.CreateCall(S.Ctx.Runtime.free(), {Values.shadowInReverse(AI, AI)});
    return true;
  }
  if (!S.AA.isVaried(&I))
    return true;

  Value *DY = Adjoints.takeAdjoint(&I);
  if (auto *Ld = dyn_cast<LoadInst>(&I)) {
    Value *SP = Values.shadowInReverse(Ld->getPointerOperand(), &I);
    if (!SP)
      return false;
    accumulateIntoMemory(B, SP, DY, Ld->getAlign(),
                         shadowMayBeShared(*I.getModule(),
                                           Ld->getPointerOperand(),
                                           S.ThreadOwned));
    return true;
  }
  if (const MathRule *Rule = lookupInstructionRule(I.getOpcode())) {
    AdjointCalls E(*this);
    adjointByRule(E, I, *Rule, DY);
    return true;
  }
  return reverseStructural(I, DY);
}

/// Adds partial * DY to each varied argument's adjoint (the arguments of a
/// call are its first operands, so instructions and calls share this).
bool ReverseBuilder::reverseStructural(Instruction &I, Value *DY) {
  IRBuilder<> &B = S.B;
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    Adjoints.addAdjoint(I.getOperand(0),
                        B.CreateFPCast(DY, I.getOperand(0)->getType()));
    return true;
  case Instruction::BitCast: {
    Value *Op = I.getOperand(0);
    Type *OpTy = S.AA.derivativeType(Op);
    if (OpTy == DY->getType()) { // Floating-point bits through an integer.
      Adjoints.addAdjoint(Op, DY);
      return true;
    }
    if (isDifferentiableType(OpTy)) {
      Adjoints.addAdjoint(Op, B.CreateBitCast(DY, OpTy));
      return true;
    }
    break;
  }
  case Instruction::Freeze:
    Adjoints.addAdjoint(I.getOperand(0), DY);
    return true;
  case Instruction::Select: {
    auto *Sel = cast<SelectInst>(&I);
    // DY's type, not the select's: an integer select of floating-point bits
    // has a floating-point adjoint.
    Value *Zero = adjointZero(DY->getType());
    Value *C = Values.primalInReverse(Sel->getCondition());
    if (S.AA.isVaried(Sel->getTrueValue()))
      Adjoints.addAdjoint(Sel->getTrueValue(), B.CreateSelect(C, DY, Zero));
    if (S.AA.isVaried(Sel->getFalseValue()))
      Adjoints.addAdjoint(Sel->getFalseValue(), B.CreateSelect(C, Zero, DY));
    return true;
  }
  case Instruction::ExtractValue: {
    auto *EV = cast<ExtractValueInst>(&I);
    Value *Agg = EV->getAggregateOperand();
    Adjoints.addAdjoint(Agg, B.CreateInsertValue(adjointZero(Agg->getType()),
                                                 DY, EV->getIndices()));
    return true;
  }
  case Instruction::InsertValue: {
    auto *IV = cast<InsertValueInst>(&I);
    Value *Val = IV->getInsertedValueOperand();
    if (S.AA.isVaried(Val))
      Adjoints.addAdjoint(Val, B.CreateExtractValue(DY, IV->getIndices()));
    Adjoints.addAdjoint(
        IV->getAggregateOperand(),
        B.CreateInsertValue(DY, adjointZero(Val->getType()), IV->getIndices()));
    return true;
  }
  case Instruction::ExtractElement: {
    auto *EE = cast<ExtractElementInst>(&I);
    Value *Vec = EE->getVectorOperand();
    Value *Idx = Values.primalInReverse(EE->getIndexOperand());
    Adjoints.addAdjoint(
        Vec, B.CreateInsertElement(adjointZero(Vec->getType()), DY, Idx));
    return true;
  }
  case Instruction::InsertElement: {
    auto *IE = cast<InsertElementInst>(&I);
    Value *Idx = Values.primalInReverse(IE->getOperand(2));
    Value *Elt = IE->getOperand(1);
    if (S.AA.isVaried(Elt))
      Adjoints.addAdjoint(Elt, B.CreateExtractElement(DY, Idx));
    Adjoints.addAdjoint(
        IE->getOperand(0),
        B.CreateInsertElement(DY, adjointZero(Elt->getType()), Idx));
    return true;
  }
  case Instruction::ShuffleVector:
    reverseShuffle(cast<ShuffleVectorInst>(I), DY);
    return true;
  default:
    break;
  }
  S.Ctx.Diag.error(&I,
                   Twine("no derivative rule for instruction '") +
                       I.getOpcodeName() + "'",
                   "rewrite this operation or report it as a missing rule");
  return false;
}

/// Each lane of the result came from one lane of the two inputs (or none):
/// its adjoint goes back there, summed where a lane was used twice.
void ReverseBuilder::reverseShuffle(ShuffleVectorInst &SV, Value *DY) {
  IRBuilder<> &B = S.B;
  Value *V1 = SV.getOperand(0), *V2 = SV.getOperand(1);
  auto *InTy = cast<FixedVectorType>(V1->getType());
  unsigned N = InTy->getNumElements();
  Value *D1 = adjointZero(InTy), *D2 = D1;
  ArrayRef<int> Mask = SV.getShuffleMask();
  for (unsigned Lane = 0; Lane < Mask.size(); ++Lane) {
    int M = Mask[Lane];
    if (M < 0)
      continue;
    Value *&D = unsigned(M) < N ? D1 : D2;
    unsigned Src = unsigned(M) % N;
    Value *Sum = B.CreateFAdd(B.CreateExtractElement(D, Src),
                              B.CreateExtractElement(DY, Lane));
    D = B.CreateInsertElement(D, Sum, Src);
  }
  Adjoints.addAdjoint(V1, D1);
  Adjoints.addAdjoint(V2, D2);
}

bool ReverseBuilder::reverseStore(StoreInst &I) {
  IRBuilder<> &B = S.B;
  Value *Val = I.getValueOperand(), *Ptr = I.getPointerOperand();
  Type *T = S.AA.derivativeType(Val);
  if (!S.AA.hasShadow(Ptr))
    return true;
  if (S.AA.movesPointerBits(Val))
    return true; // A pointer's bits: its shadow carries no adjoint.
  if (!isDifferentiableType(T)) {
    // An integer overwrote whatever was there, maybe a float whose adjoint
    // must not flow to the code before this store.
    if (!T->isIntOrIntVectorTy())
      return true;
    Value *SP = Values.shadowInReverse(Ptr, &I);
    if (!SP)
      return false;
    B.CreateAlignedStore(Constant::getNullValue(T), SP, I.getAlign(),
                         I.isVolatile());
    return true;
  }
  // The stored value's adjoint is what the shadow holds now; the location's
  // previous value was overwritten, so its adjoint starts from zero.
  Value *SP = Values.shadowInReverse(Ptr, &I);
  if (!SP)
    return false;
  Value *D = B.CreateAlignedLoad(T, SP, I.getAlign(), I.isVolatile());
  B.CreateAlignedStore(Constant::getNullValue(T), SP, I.getAlign(),
                       I.isVolatile());
  Adjoints.addAdjoint(Val, D);
  return true;
}

/// p op= v, atomically: for fadd, v's adjoint is the location's adjoint
/// (which stays, as for +=); for fsub its negation; for an exchange, the
/// location's adjoint, which the old value's adjoint replaces. The old
/// value's adjoint (where the program uses the result) is then added to the
/// location's, atomically (other threads may add theirs).
bool ReverseBuilder::reverseAtomicUpdate(AtomicRMWInst &I) {
  IRBuilder<> &B = S.B;
  Value *Ptr = I.getPointerOperand(), *Val = I.getValOperand();
  if (!isDifferentiatedAtomicUpdate(I) || !S.AA.hasShadow(Ptr))
    return true;
  if (!checkAtomicUpdate(S.Ctx.Diag, I))
    return false;
  Value *SP = Values.shadowInReverse(Ptr, &I);
  if (!SP)
    return false;
  Type *T = Val->getType();
  Value *DOld = S.AA.isVaried(&I) ? Adjoints.takeAdjoint(&I) : nullptr;
  if (I.getOperation() == AtomicRMWInst::Xchg) {
    Value *D =
        B.CreateAtomicRMW(AtomicRMWInst::Xchg, SP, DOld ? DOld : adjointZero(T),
                          I.getAlign(), AtomicOrdering::Monotonic);
    if (S.AA.isVaried(Val))
      Adjoints.addAdjoint(Val, D);
    return true;
  }
  LoadInst *D = B.CreateAlignedLoad(T, SP, I.getAlign());
  D->setAtomic(AtomicOrdering::Monotonic);
  if (S.AA.isVaried(Val))
    Adjoints.addAdjoint(Val, I.getOperation() == AtomicRMWInst::FSub
                                 ? B.CreateFNeg(D)
                                 : static_cast<Value *>(D));
  if (DOld)
    accumulateIntoMemory(B, SP, DOld, I.getAlign(), /*Atomic=*/true);
  return true;
}

} // namespace ad
