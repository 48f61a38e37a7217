//===- ReverseControlFlow.cpp - Reverse mode: paths without the tape ------===//
//
// How the reverse sweep knows the way back without reading it from the tape:
// counted loops (their induction variables counted down in slots), joins
// whose predecessor a branch decides or a replay of branches finds, and the
// values a loop's reverse blocks need that do not change inside the loop
// (read once where the reverse sweep enters it).
//
//===----------------------------------------------------------------------===//
#include "modes/ReverseBuilder.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/IR/Module.h"
#include <functional>

using namespace llvm;

namespace ad {

std::optional<ReverseBuilder::DecidingBranch>
ReverseBuilder::decidingBranch(BasicBlock *BB) {
  auto [It, Inserted] = Deciding.try_emplace(BB);
  if (!Inserted)
    return It->second;
  SmallVector<BasicBlock *, 2> &P = Preds[BB];
  if (P.size() != 2 || LI.isLoopHeader(BB) || !DT.getNode(BB)->getIDom())
    return std::nullopt;
  BasicBlock *D = DT.getNode(BB)->getIDom()->getBlock();
  auto *Br = dyn_cast<BranchInst>(D->getTerminator());
  Loop *L = LI.getLoopFor(BB);
  if (!Br || !Br->isConditional() || LI.getLoopFor(D) != L ||
      Br->getSuccessor(0) == Br->getSuccessor(1))
    return std::nullopt;
  // The blocks one direction reaches before BB, within one iteration of the
  // enclosing loop (inner loops included).
  auto Side = [&](BasicBlock *S) {
    SmallPtrSet<BasicBlock *, 16> Seen;
    if (S == BB) {
      Seen.insert(D);
      return Seen;
    }
    SmallVector<BasicBlock *, 16> Work{S};
    Seen.insert(S);
    while (!Work.empty()) {
      BasicBlock *X = Work.pop_back_val();
      for (BasicBlock *Y : successors(X))
        if (Y != BB && Y != D && (!L || (L->contains(Y) && Y != L->getHeader())) &&
            Seen.insert(Y).second)
          Work.push_back(Y);
    }
    return Seen;
  };
  auto OnTrue = Side(Br->getSuccessor(0)), OnFalse = Side(Br->getSuccessor(1));
  auto Only = [](auto &In, auto &Out, BasicBlock *X) {
    return In.count(X) && !Out.count(X);
  };
  if (Only(OnTrue, OnFalse, P[0]) && Only(OnFalse, OnTrue, P[1]))
    It->second = DecidingBranch{Br->getCondition(), 0, 1};
  else if (Only(OnTrue, OnFalse, P[1]) && Only(OnFalse, OnTrue, P[0]))
    It->second = DecidingBranch{Br->getCondition(), 1, 0};
  return It->second;
}

bool ReverseBuilder::emitReplayedJoin(
    BasicBlock *J, function_ref<void(BasicBlock *)> EmitEdge) {
  // Which predecessor J was entered from is where the branches from its
  // immediate dominator D led. When every condition on the way can be
  // computed again at J's reverse block without the tape, the reverse
  // replays them: a copy of the branches from D to J, with each loop on
  // the way (not around J) stepped over to its one exit.
  SmallVector<BasicBlock *, 2> &P = Preds[J];
  DomTreeNode *Node = DT.getNode(J);
  if (LI.isLoopHeader(J) || !Node || !Node->getIDom())
    return false;
  BasicBlock *D = Node->getIDom()->getBlock();
  Loop *LJ = LI.getLoopFor(J);
  struct Step {
    Value *Cond = nullptr; ///< Null: unconditional.
    SmallVector<std::pair<BasicBlock *, BasicBlock *>, 2> Next; ///< (to, via)
  };
  MapVector<BasicBlock *, Step> Plan;
  DenseSet<BasicBlock *> Active;
  constexpr unsigned MaxBlocks = 64;
  auto Legal = [&](Value *Cond) {
    auto *I = dyn_cast<Instruction>(Cond);
    return !I || DT.dominates(I->getParent(), J) ||
           speculatableWithoutTape(Cond, 0);
  };
  std::function<bool(BasicBlock *)> Visit = [&](BasicBlock *X) -> bool {
    if (Plan.count(X))
      return !Active.count(X); // A cycle is not a replayable region.
    if (Plan.size() >= MaxBlocks)
      return false;
    auto *Br = dyn_cast<BranchInst>(X->getTerminator());
    if (!Br || (Br->isConditional() && !Legal(Br->getCondition())))
      return false;
    Plan[X].Cond = Br->isConditional() ? Br->getCondition() : nullptr;
    Active.insert(X);
    for (BasicBlock *S : successors(X)) {
      BasicBlock *Via = X;
      while (S != J && LI.isLoopHeader(S) && !LI.getLoopFor(S)->contains(J)) {
        Loop *L = LI.getLoopFor(S);
        if (!L->getExitBlock() || !L->getExitingBlock())
          return false;
        Via = L->getExitingBlock();
        S = L->getExitBlock();
      }
      if (S == J) {
        if (!is_contained(P, Via))
          return false;
      } else if (S == D || !DT.dominates(D, S) ||
                 (LJ && (!LJ->contains(S) || S == LJ->getHeader())) ||
                 !Visit(S)) {
        return false;
      }
      Plan[X].Next.push_back({S, Via});
    }
    Active.erase(X);
    return true;
  };
  if (!Visit(D))
    return false;
  DenseMap<BasicBlock *, BasicBlock *> EdgeOf;
  for (auto &[X, St] : Plan)
    for (auto &[To, Via] : St.Next)
      if (To == J)
        EdgeOf[Via] = nullptr;
  if (EdgeOf.size() != P.size())
    return false;

  LLVMContext &C = Ctx.M.getContext();
  for (BasicBlock *Pred : P)
    EdgeOf[Pred] = BasicBlock::Create(
        C, "rev.edge." + Pred->getName() + "." + J->getName(), RevF);
  DenseMap<BasicBlock *, BasicBlock *> Replay;
  for (auto &[X, St] : Plan)
    Replay[X] = BasicBlock::Create(
        C, "rev.replay." + X->getName() + "." + J->getName(), RevF);
  B.CreateBr(Replay[D]);
  for (auto &[X, St] : Plan) {
    B.SetInsertPoint(Replay[X]);
    auto Target = [&](auto &Edge) {
      return Edge.first == J ? EdgeOf[Edge.second] : Replay[Edge.first];
    };
    if (St.Cond)
      B.CreateCondBr(primalInReverse(St.Cond), Target(St.Next[0]),
                     Target(St.Next[1]));
    else
      B.CreateBr(Target(St.Next[0]));
  }
  for (BasicBlock *Pred : P) {
    B.SetInsertPoint(EdgeOf[Pred]);
    EmitEdge(Pred);
  }
  return true;
}

const Recurrence *ReverseBuilder::inductionInScope(const Value *Orig) const {
  auto *Phi = dyn_cast<PHINode>(Orig);
  const Recurrence *R = Phi ? Inductions.lookup(Phi) : nullptr;
  if (!R || !CurBlock)
    return nullptr;
  Loop *L = LI.getLoopFor(Phi->getParent());
  return L && L->contains(CurBlock) ? R : nullptr;
}

Value *ReverseBuilder::inductionInReverse(const Recurrence &R) {
  Value *Fwd = VMap[R.Phi];
  if (Value *V = Records[CurBlock]->Loaded.lookup(Fwd))
    return V;
  AllocaInst *Slot = inductionSlot(R);
  auto *L = new LoadInst(R.Phi->getType(), Slot, R.Phi->getName() + ".rev",
                         /*isVolatile=*/false, Slot->getAlign());
  return placeWithRecord(L, Fwd);
}

void ReverseBuilder::enterCountedLoops(BasicBlock *From, BasicBlock *To) {
  // Values first (they may read the slots of enclosing loops), then stores.
  SmallVector<std::pair<Value *, AllocaInst *>, 4> Inits;
  for (Loop *L = LI.getLoopFor(To); L && !L->contains(From);
       L = L->getParentLoop()) {
    LoopEntries[L].push_back({From, B.GetInsertBlock()});
    auto It = Counted.find(L->getHeader());
    if (It == Counted.end())
      continue;
    for (const Recurrence &R : It->second.IVs)
      Inits.push_back({primalInReverse(R.Last), inductionSlot(R)});
    const Recurrence &Counter = It->second.IVs[0];
    Inits.push_back({primalInReverse(Counter.Start), startSlot(It->second)});
  }
  for (auto &[V, Slot] : Inits)
    B.CreateStore(V, Slot);
}

AllocaInst *ReverseBuilder::inductionSlot(const Recurrence &R) {
  AllocaInst *&Slot = InductionSlots[R.Phi];
  if (!Slot)
    Slot = scratchSlot(R.Phi->getType(), R.Phi->getName() + ".rev.slot");
  return Slot;
}

AllocaInst *ReverseBuilder::startSlot(const CountedLoop &CL) {
  AllocaInst *&Slot = StartSlots[CL.Header];
  if (!Slot)
    Slot = scratchSlot(CL.IVs[0].Phi->getType(),
                       CL.Header->getName() + ".rev.start");
  return Slot;
}

void ReverseBuilder::emitCountedHeaderTerminator(
    const CountedLoop &CL, ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints) {
  // Back at the counter's start: this was the first iteration, entered from
  // the preheader. Otherwise the previous iteration ended at the latch.
  const Recurrence &Counter = CL.IVs[0];
  Value *Current = inductionInReverse(Counter);
  Value *Start = B.CreateLoad(Counter.Phi->getType(), startSlot(CL),
                              CL.Header->getName() + ".start");
  LLVMContext &C = Ctx.M.getContext();
  BasicBlock *ToPreheader = BasicBlock::Create(
      C, "rev.loop.enter." + CL.Header->getName(), RevF);
  BasicBlock *ToLatch = BasicBlock::Create(
      C, "rev.loop.back." + CL.Header->getName(), RevF);
  B.CreateCondBr(B.CreateICmpEQ(Current, Start, "first.iteration"),
                 ToPreheader, ToLatch);

  auto PhiEdge = [&](BasicBlock *Pred) {
    for (auto &[Phi, D] : PhiAdjoints)
      addAdjoint(Phi->getIncomingValueForBlock(Pred), D);
  };
  B.SetInsertPoint(ToPreheader);
  PhiEdge(CL.Preheader);
  B.CreateBr(RevBlocks[CL.Preheader]);

  B.SetInsertPoint(ToLatch);
  for (const Recurrence &R : CL.IVs) {
    Value *V = inductionInReverse(R);
    Value *Previous =
        V->getType()->isPointerTy()
            ? B.CreateGEP(B.getInt8Ty(), V, ConstantExpr::getNeg(R.Step))
            : B.CreateSub(V, R.Step);
    B.CreateStore(Previous, inductionSlot(R));
  }
  PhiEdge(CL.Latch);
  B.CreateBr(RevBlocks[CL.Latch]);
}

const Loop *ReverseBuilder::invariantLoop(const Value *Orig) const {
  auto *I = dyn_cast<Instruction>(Orig);
  if (!I || !CurBlock)
    return nullptr;
  const Loop *Outermost = nullptr;
  Loop *L = LI.getLoopFor(CurBlock);
  for (; L && !L->contains(I->getParent()); L = L->getParentLoop())
    Outermost = L;
  // The slot is set where the reverse sweep enters the loop, from what the
  // forward sweep had when it left it: the value must have been computed
  // before the loop (not only be the incoming value of some phi).
  if (Outermost && !DT.dominates(I->getParent(), Outermost->getHeader()))
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

bool ReverseBuilder::invariantLoad(const LoadInst &Ld, const Loop &L) const {
  auto [It, New] = InvariantLoads.try_emplace({&Ld, &L}, false);
  if (!New)
    return It->second;
  if (!Ld.isSimple() || !computedOutside(Ld.getPointerOperand(), L, 4))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (Exiting.empty() || !all_of(Exiting, [&](BasicBlock *E) {
        return DT.dominates(Ld.getParent(), E);
      }))
    return false;
  bool Unwritten = unwrittenArgument(Ld);
  if (!Unwritten) {
    MemoryLocation Loc = MemoryLocation::get(&Ld);
    AAResults &AAR = Ctx.FAM.getResult<AAManager>(*Primal);
    Unwritten = none_of(*Writers, [&](Instruction *W) {
      return L.contains(W) && mayWrite(AAR, W, Loc);
    });
  }
  return InvariantLoads[{&Ld, &L}] = Unwritten;
}

Value *ReverseBuilder::invariantInReverse(Value *Orig, bool Shadow,
                                          const Loop *L) {
  Value *Fwd = Shadow ? Shadows.lookup(Orig) : static_cast<Value *>(VMap[Orig]);
  if (Value *V = Records[CurBlock]->Loaded.lookup(Fwd))
    return V;
  auto [It, New] = InvariantIndex.try_emplace({Fwd, L}, Invariants.size());
  if (New)
    Invariants.push_back(
        {Orig, Shadow, L,
         scratchSlot(Fwd->getType(), Fwd->getName() + ".invariant")});
  AllocaInst *Slot = Invariants[It->second].Slot;
  auto *Load = new LoadInst(Fwd->getType(), Slot, Fwd->getName() + ".inv",
                            /*isVolatile=*/false, Slot->getAlign());
  return placeWithRecord(Load, Fwd);
}

void ReverseBuilder::initInvariantSlots() {
  // Each slot is set where the reverse sweep enters its loop, from the
  // record (or recomputation) of the block it enters from; that may ask for
  // more slots, of loops around that block, which the loop then reaches.
  for (unsigned K = 0; K < Invariants.size(); ++K) {
    InvariantSlot Inv = Invariants[K];
    for (auto [From, Edge] : LoopEntries.lookup(Inv.L)) {
      CurBlock = From;
      Instruction *At = Edge->getTerminator();
      B.SetInsertPoint(At);
      Value *V = Inv.Shadow ? shadowInReverse(Inv.Orig, At)
                            : primalInReverse(Inv.Orig);
      B.CreateStore(V, Inv.Slot);
    }
  }
}

/// One cheap, pure operation: a negation, a cast, address arithmetic, or
/// arithmetic with a constant operand. Recomputing it costs one instruction;
/// taping it costs a store in the forward sweep and a load in the reverse.

} // namespace ad
