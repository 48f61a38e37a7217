//===- PrimalInLoops.cpp - Reverse mode: primal values kept in slots ------===//
//
// The part of PrimalInReverse (see PrimalInReverse.h) that needs no tape
// inside loops: a counted loop's induction variables, counted down in slots,
// and values that do not change while a loop runs, read once into a slot
// where the reverse sweep enters the loop. Both trade a field per iteration
// for a store per entry into the loop.
//
//===----------------------------------------------------------------------===//
#include "analysis/MemoryEffects.h"
#include "core/PrimalMarks.h"
#include "modes/AdjointSlots.h"
#include "modes/PrimalInReverse.h"
#include "modes/ReverseControlFlow.h"
#include "modes/TapeRecords.h"
#include "llvm/Analysis/AliasAnalysis.h"

using namespace llvm;

namespace ad {

const Recurrence *PrimalInReverse::inductionInScope(const Value *Orig) const {
  auto *Phi = dyn_cast<PHINode>(Orig);
  const Recurrence *R = Phi ? Inductions.lookup(Phi) : nullptr;
  if (!R || !S.CurBlock)
    return nullptr;
  Loop *L = S.LI.getLoopFor(Phi->getParent());
  return L && L->contains(S.CurBlock) ? R : nullptr;
}

Value *PrimalInReverse::inductionInReverse(const Recurrence &R) {
  Value *Fwd = S.VMap[R.Phi];
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  AllocaInst *Slot = inductionSlot(R);
  auto *L = new LoadInst(R.Phi->getType(), Slot, R.Phi->getName() + ".rev",
                         /*isVolatile=*/false, Slot->getAlign());
  return placeWithRecord(L, Fwd);
}

AllocaInst *PrimalInReverse::inductionSlot(const Recurrence &R) {
  AllocaInst *&Slot = InductionSlots[R.Phi];
  if (!Slot)
    Slot =
        Adjoints.scratchSlot(R.Phi->getType(), R.Phi->getName() + ".rev.slot");
  return Slot;
}

const SteppedRecurrence *PrimalInReverse::steppedInScope(const Value *Orig) {
  auto *Phi = dyn_cast<PHINode>(Orig);
  auto It = Phi ? Stepped.find(Phi) : Stepped.end();
  if (It == Stepped.end() || !S.CurBlock || !It->second.L->contains(S.CurBlock))
    return nullptr;
  SteppedInfo &Info = It->second;
  if (!Info.Usable) {
    // The back edge recomputes the step in the header's reverse block: it
    // must be recomputable there, for every block to use the slot.
    // Asked in the middle of another block's question, whose memo (valid
    // for its block only) is set aside meanwhile.
    Info.Usable = false; // Asked again while deciding: no.
    BasicBlock *Saved = S.CurBlock, *SavedMemoBlock = MemoBlock;
    DenseMap<const Value *, bool> SavedMemo = std::move(Recomputable);
    Recomputable.clear();
    S.CurBlock = MemoBlock = Info.L->getHeader();
    bool Usable = recomputableWithoutTape(Info.R->Step, 0);
    S.CurBlock = Saved;
    MemoBlock = SavedMemoBlock;
    Recomputable = std::move(SavedMemo);
    Info.Usable = Usable;
  }
  // And in this block, where the step may have to be recomputed too (else
  // the phi is taped here, as before).
  if (!*Info.Usable || (S.CurBlock != Info.L->getHeader() &&
                        !recomputableWithoutTape(Info.R->Step, 0)))
    return nullptr;
  return Info.R;
}

Value *PrimalInReverse::steppedInReverse(const SteppedRecurrence &R) {
  Value *Fwd = S.VMap[R.Phi];
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  SteppedInfo &Info = Stepped.find(R.Phi)->second;
  if (!Info.Slot) {
    Info.Slot =
        Adjoints.scratchSlot(R.Phi->getType(), R.Phi->getName() + ".rev.next");
    SteppedUsed.push_back(R.Phi);
  }
  // Keyed by the slot: the value after this iteration's step.
  Value *Next = Records.loaded(S.CurBlock, Info.Slot);
  if (!Next)
    Next = placeWithRecord(new LoadInst(R.Phi->getType(), Info.Slot,
                                        R.Phi->getName() + ".rev.next",
                                        /*isVolatile=*/false,
                                        Info.Slot->getAlign()),
                           Info.Slot);
  Value *Step = primalInReverse(R.Step);
  return placeWithRecord(
      BinaryOperator::CreateSub(Next, Step, R.Phi->getName() + ".rev"), Fwd);
}

void PrimalInReverse::initSteppedSlot(const SteppedRecurrence &R) {
  const SteppedInfo &Info = Stepped.find(R.Phi)->second;
  // Entering the loop from its exit: the last iteration's next value.
  for (auto [From, Edge] : Flow.loopEntries(Info.L)) {
    S.CurBlock = From;
    S.B.SetInsertPoint(Edge->getTerminator());
    S.B.CreateStore(primalInReverse(R.Final), Info.Slot);
  }
  // Back to the previous iteration: its next value is this one's value.
  if (BasicBlock *Back = Flow.backEdge(Info.L->getHeader())) {
    S.CurBlock = Info.L->getHeader();
    S.B.SetInsertPoint(Back->getTerminator());
    S.B.CreateStore(primalInReverse(R.Phi), Info.Slot);
  }
}

const Loop *PrimalInReverse::invariantLoop(const Value *Orig) const {
  auto *I = dyn_cast<Instruction>(Orig);
  if (!I || !S.CurBlock)
    return nullptr;
  const Loop *Outermost = nullptr;
  Loop *L = S.LI.getLoopFor(S.CurBlock);
  for (; L && !L->contains(I->getParent()); L = L->getParentLoop())
    Outermost = L;
  // The slot is set where the reverse sweep enters the loop, from what the
  // forward sweep had when it left it: the value must have been computed
  // before the loop (not only be the incoming value of some phi).
  if (Outermost && !S.DT.dominates(I->getParent(), Outermost->getHeader()))
    return nullptr;
  // Loops around both the block and a load whose value does not change in
  // them: the slot is set from the value the last iteration loaded.
  if (auto *Ld = dyn_cast<LoadInst>(I))
    for (; L && invariantLoad(*Ld, *L); L = L->getParentLoop())
      Outermost = L;
  return Outermost;
}

/// \p V is computed outside \p L, or from such values by address
/// arithmetic inside it.
static bool computedOutside(const Value *V, const Loop &L, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true;
  if (Depth == 0 || !(isa<GetElementPtrInst>(I) || isa<CastInst>(I)))
    return false;
  return all_of(I->operands(), [&](const Value *Op) {
    return computedOutside(Op, L, Depth - 1);
  });
}

bool PrimalInReverse::invariantLoad(const LoadInst &Ld, const Loop &L) const {
  auto [It, New] = InvariantLoads.try_emplace({&Ld, &L}, false);
  if (!New)
    return It->second;
  if (!Ld.isSimple() || !computedOutside(Ld.getPointerOperand(), L, 4))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (Exiting.empty() || !all_of(Exiting, [&](BasicBlock *E) {
        return S.DT.dominates(Ld.getParent(), E);
      }))
    return false;
  // A run-time check of the canonical primal (ReloadVersioning.h) may have
  // shown that no write of Ld's own loop reaches it.
  bool Unwritten =
      unwrittenArgument(Ld) ||
      (isUnchangedInItsLoop(Ld) && S.LI.getLoopFor(Ld.getParent()) == &L);
  if (!Unwritten) {
    MemoryLocation Loc = MemoryLocation::get(&Ld);
    AAResults &AAR = S.Ctx.FAM.getResult<AAManager>(*S.Primal);
    Unwritten = none_of(*Writers, [&](Instruction *W) {
      return L.contains(W) && mayWrite(AAR, W, Loc);
    });
  }
  return InvariantLoads[{&Ld, &L}] = Unwritten;
}

Value *PrimalInReverse::invariantInReverse(Value *Orig, bool Shadow,
                                           const Loop *L) {
  Value *Fwd =
      Shadow ? S.Shadows.lookup(Orig) : static_cast<Value *>(S.VMap[Orig]);
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  auto [It, New] = InvariantIndex.try_emplace({Fwd, L}, Invariants.size());
  if (New)
    Invariants.push_back(
        {Orig, Shadow, L,
         Adjoints.scratchSlot(Fwd->getType(), Fwd->getName() + ".invariant")});
  AllocaInst *Slot = Invariants[It->second].Slot;
  auto *Load = new LoadInst(Fwd->getType(), Slot, Fwd->getName() + ".inv",
                            /*isVolatile=*/false, Slot->getAlign());
  return placeWithRecord(Load, Fwd);
}

void PrimalInReverse::initInvariantSlots() {
  // Each slot is set where the reverse sweep enters its loop, from the
  // record (or recomputation) of the block it enters from; that may ask for
  // more slots, of loops around that block, which the loop then reaches.
  // Stepped recurrences likewise, in the same loop: each kind may ask for
  // more of the other.
  for (unsigned K = 0, J = 0;
       K < Invariants.size() || J < SteppedUsed.size();) {
    if (K == Invariants.size()) {
      initSteppedSlot(*Stepped.find(SteppedUsed[J++])->second.R);
      continue;
    }
    InvariantSlot Inv = Invariants[K++];
    for (auto [From, Edge] : Flow.loopEntries(Inv.L)) {
      S.CurBlock = From;
      Instruction *At = Edge->getTerminator();
      S.B.SetInsertPoint(At);
      Value *V = Inv.Shadow ? shadowInReverse(Inv.Orig, At)
                            : primalInReverse(Inv.Orig);
      S.B.CreateStore(V, Inv.Slot);
    }
  }
}

} // namespace ad
