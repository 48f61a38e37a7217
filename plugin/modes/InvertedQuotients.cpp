//===- InvertedQuotients.cpp - A value recomputed from its stored quotient
//-===//
//
// A softmax stores each exponential, reads it back in a later loop and
// overwrites it with its quotient by the sum: probs[i] = exp(x[i] - m);
// ...; probs[i] /= sum. The reverse sweep of the exponential needs its
// value, which is gone from memory. Recomputing exp costs a library call per
// element, taping it a field per element; where the division carries the
// fast-math flags that allow rounding-level algebra (reassoc and arcp, as
// -ffast-math and -Ofast give), the value is the stored quotient times the
// sum, a load and a multiply. Without the flags the derivative follows the
// program's own arithmetic and this does not apply.
//
//===----------------------------------------------------------------------===//
#include "analysis/AccessIntervals.h"
#include "analysis/MemoryEffects.h"
#include "core/PrimalMarks.h"
#include "modes/AdjointSlots.h"
#include "modes/PrimalInReverse.h"
#include "modes/TapeRecords.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace ad {

std::optional<PrimalInReverse::StoredQuotient>
PrimalInReverse::storedQuotient(const Instruction &I) {
  auto [It, New] = Quotients.try_emplace(&I);
  if (New)
    It->second = findStoredQuotient(I);
  return It->second;
}

std::optional<PrimalInReverse::StoredQuotient>
PrimalInReverse::findStoredQuotient(const Instruction &I) {
  // Only in a gradient, whose checked copy marks what stays in memory.
  if (!S.Combined || !I.getType()->isFloatingPointTy())
    return std::nullopt;
  FunctionAnalysisManager &FAM = S.Ctx.FAM;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(*S.Primal);
  AAResults &AAR = FAM.getResult<AAManager>(*S.Primal);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(*S.Primal);
  PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(*S.Primal);
  for (const User *U : I.users()) {
    auto *First = dyn_cast<StoreInst>(U);
    if (!First || First->getValueOperand() != &I || !First->isSimple() ||
        !alwaysFollows(I.getParent(), First->getParent(), S.LI))
      continue;
    const Loop *L1 = S.LI.getLoopFor(First->getParent());
    if (!L1)
      continue;
    auto R1 = recurrenceOf(
        SE, SE.getSCEV(const_cast<Value *>(First->getPointerOperand())), L1);
    const SCEV *Count = SE.getBackedgeTakenCount(L1);
    if (!R1 || R1->second->isZero() || isa<SCEVCouldNotCompute>(Count))
      continue;
    for (Instruction *W : writers()) {
      // The quotient overwrites what a later loop read back at the same
      // address, iteration for iteration, and stays.
      auto *Last = dyn_cast<StoreInst>(W);
      auto *Q =
          Last ? dyn_cast<BinaryOperator>(Last->getValueOperand()) : nullptr;
      if (!Q || !Q->hasAllowReassoc() || !Q->hasAllowReciprocal() ||
          !Last->isSimple() || !isUnchangedAfterAccess(*Last) ||
          inDeadLocal(*Last))
        continue;
      // X / D, X * R, R * X: X is the quotient times D, times 1 / R's
      // divisor where R is a reciprocal, or divided by R.
      auto *X = dyn_cast<LoadInst>(Q->getOperand(0));
      Value *Factor = Q->getOperand(1);
      bool Multiply = true;
      if (Q->getOpcode() == Instruction::FMul) {
        if (!X || X->getPointerOperand() != Last->getPointerOperand()) {
          X = dyn_cast<LoadInst>(Q->getOperand(1));
          Factor = Q->getOperand(0);
        }
        auto *Reciprocal = dyn_cast<BinaryOperator>(Factor);
        auto *One = Reciprocal && Reciprocal->getOpcode() == Instruction::FDiv
                        ? dyn_cast<ConstantFP>(Reciprocal->getOperand(0))
                        : nullptr;
        if (One && One->isExactlyValue(1.0) && Reciprocal->hasAllowReciprocal())
          Factor = Reciprocal->getOperand(1);
        else
          Multiply = false;
      } else if (Q->getOpcode() != Instruction::FDiv) {
        continue;
      }
      const Loop *L2 = X ? S.LI.getLoopFor(X->getParent()) : nullptr;
      if (!X || !X->isSimple() ||
          X->getPointerOperand() != Last->getPointerOperand() || !L2 ||
          L2 == L1 || L2->getParentLoop() != L1->getParentLoop() ||
          !alwaysFollows(X->getParent(), Last->getParent(), S.LI) ||
          !L2->isLoopInvariant(Factor) ||
          SE.getBackedgeTakenCount(L2) != Count ||
          !PDT.dominates(X->getParent(), First->getParent()))
        continue;
      // The factor as the later loop sees it: from before the first loop,
      // or the first loop's last value, where no loop is around them.
      auto *FactorDef = dyn_cast<Instruction>(Factor);
      const Loop *FactorLoop =
          FactorDef ? S.LI.getLoopFor(FactorDef->getParent()) : nullptr;
      if (FactorLoop && (FactorLoop != L1 || L1->getParentLoop()))
        continue;
      // Computed in a function that runs the loops once: kept in a slot.
      bool AtExit = FactorDef && !L1->getParentLoop();
      auto R2 = recurrenceOf(SE, SE.getSCEV(X->getPointerOperand()), L2);
      if (!R2 || R2->first != R1->first || R2->second != R1->second)
        continue;
      // X reads what First stored: nothing between them writes there (but
      // First and Last themselves, at other addresses in other iterations).
      MemoryLocation Loc = MemoryLocation::get(X);
      if (any_of(writers(), [&](Instruction *Between) {
            return Between != First && Between != Last &&
                   mayWrite(AAR, Between, Loc) &&
                   isPotentiallyReachable(First, Between, nullptr, &DT,
                                          &S.LI) &&
                   isPotentiallyReachable(Between, X, nullptr, &DT, &S.LI);
          }))
        continue;
      return StoredQuotient{
          const_cast<StoreInst *>(First), Q, X, Factor, Multiply, AtExit};
    }
  }
  return std::nullopt;
}

Value *PrimalInReverse::invertQuotient(Instruction &I, unsigned Depth) {
  if (Depth > MaxRecomputeDepth)
    return nullptr;
  auto Quotient = storedQuotient(I);
  if (!Quotient ||
      !recomputableWithoutTape(Quotient->First->getPointerOperand(),
                               Depth + 1) ||
      !(Quotient->FactorAtExit ||
        recomputableWithoutTape(Quotient->Factor, Depth + 1)))
    return nullptr;
  Value *Fwd = S.VMap[&I];
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  StoreInst &First = *Quotient->First;
  Value *Ptr = operandInReverse(First.getPointerOperand(), Depth + 1);
  Value *Factor = nullptr;
  if (Quotient->FactorAtExit) {
    // The value the later loop divided by, kept in a slot by its forward
    // copy: the last value of the first loop, which runs once.
    AllocaInst *&Slot = FactorSlots[Quotient->Factor];
    if (!Slot) {
      Slot = Adjoints.scratchSlot(Quotient->Factor->getType(),
                                  Quotient->Factor->getName() + ".divisor");
      new StoreInst(S.VMap[Quotient->Factor], Slot,
                    cast<Instruction>(S.VMap[Quotient->Reread])->getIterator());
    }
    Factor = placeWithRecord(
        new LoadInst(Slot->getAllocatedType(), Slot,
                     Quotient->Factor->getName() + ".divisor.re",
                     /*isVolatile=*/false, Slot->getAlign()),
        Slot);
  } else {
    Factor = operandInReverse(Quotient->Factor, Depth + 1);
  }
  // (Kept under the forward store's name: nothing looks a store up.)
  auto *Stored = new LoadInst(I.getType(), Ptr, I.getName() + ".quotient",
                              /*isVolatile=*/false, First.getAlign());
  placeWithRecord(Stored, S.VMap[&First]);
  auto *Product = Quotient->Multiply
                      ? BinaryOperator::CreateFMul(Stored, Factor,
                                                   I.getName() + ".inverted")
                      : BinaryOperator::CreateFDiv(Stored, Factor,
                                                   I.getName() + ".inverted");
  Product->copyFastMathFlags(Quotient->Quotient);
  ++Recomputed;
  return placeWithRecord(Product, Fwd);
}

} // namespace ad
