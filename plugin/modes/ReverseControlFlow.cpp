//===- ReverseControlFlow.cpp - Reverse mode: the way back ----------------===//
//
// How the reverse sweep knows the way back (see ReverseControlFlow.h),
// preferably without reading it from the tape: counted loops (their
// induction variables counted down in slots), joins whose predecessor a
// branch decides or a replay of branches finds, and the recorded
// predecessor index otherwise.
//
//===----------------------------------------------------------------------===//
#include "modes/ReverseControlFlow.h"
#include "core/IRHelpers.h"
#include "modes/AdjointSlots.h"
#include "modes/PrimalInReverse.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Module.h"
#include <functional>

using namespace llvm;

namespace ad {

void ReverseControlFlow::createPredecessorIndices() {
  DenseSet<BasicBlock *> Live(S.LiveBlocks.begin(), S.LiveBlocks.end());
  for (BasicBlock *BB : S.LiveBlocks) {
    SmallVector<BasicBlock *, 2> &P = S.Preds[BB];
    for (BasicBlock *Pred : predecessors(BB))
      if (Live.count(Pred) && !is_contained(P, Pred))
        P.push_back(Pred);
    if (P.size() < 2)
      continue;
    auto *CloneBB = cast<BasicBlock>(S.VMap[BB]);
    Type *I32 = Type::getInt32Ty(S.Ctx.M.getContext());
    PHINode *Idx = PHINode::Create(I32, P.size(), "from", CloneBB->begin());
    for (BasicBlock *ClonePred : predecessors(CloneBB)) {
      unsigned K = 0;
      for (unsigned J = 0; J < P.size(); ++J)
        if (S.VMap[P[J]] == ClonePred)
          K = J;
      Idx->addIncoming(ConstantInt::get(I32, K), ClonePred);
    }
    PredIndex[BB] = Idx;
  }
}

void ReverseControlFlow::createReverseBlocks() {
  IRBuilder<> &B = S.B;
  LLVMContext &C = S.Ctx.M.getContext();
  if (!S.Combined) {
    RevEntry = BasicBlock::Create(C, "entry", S.RevF);
    B.SetInsertPoint(RevEntry);
    // Slots go before everything; a no-op anchor marks the spot.
    Adjoints.placeSlotsAfter(
        B.CreateAlloca(B.getInt8Ty(), nullptr, "slots.begin"));
  }
  for (BasicBlock *BB : S.LiveBlocks)
    S.RevBlocks[BB] = BasicBlock::Create(C, "rev." + BB->getName(), S.RevF);
  RevExit = BasicBlock::Create(C, "rev.exit", S.RevF);
}

void ReverseControlFlow::emitReverseTerminator(BasicBlock *BB) {
  IRBuilder<> &B = S.B;
  // Adjoints of this block's phis, read before any of them is updated:
  // phis execute in parallel.
  SmallVector<std::pair<PHINode *, Value *>, 4> PhiAdjoints;
  for (PHINode &Phi : BB->phis())
    if (S.AA.isVaried(&Phi))
      PhiAdjoints.push_back({&Phi, Adjoints.takeAdjoint(&Phi)});

  auto EmitEdge = [&](BasicBlock *Pred) {
    for (auto &[Phi, D] : PhiAdjoints)
      Adjoints.addAdjoint(Phi->getIncomingValueForBlock(Pred), D);
    enterCountedLoops(BB, Pred);
    B.CreateBr(S.RevBlocks[Pred]);
  };

  SmallVector<BasicBlock *, 2> &P = S.Preds[BB];
  if (P.empty()) {
    B.CreateBr(RevExit);
    return;
  }
  if (auto It = S.Counted.find(BB); It != S.Counted.end()) {
    emitCountedHeaderTerminator(It->second, PhiAdjoints);
    return;
  }
  if (P.size() == 1) {
    EmitEdge(P[0]);
    return;
  }
  LLVMContext &C = S.Ctx.M.getContext();
  if (std::optional<DecidingBranch> D = decidingBranch(BB)) {
    Value *Cond = Values.primalInReverse(D->Cond);
    BasicBlock *Edge[2];
    for (unsigned K = 0; K < 2; ++K)
      Edge[K] = BasicBlock::Create(
          C, "rev.edge." + P[K]->getName() + "." + BB->getName(), S.RevF);
    B.CreateCondBr(Cond, Edge[D->IfTrue], Edge[D->IfFalse]);
    for (unsigned K = 0; K < 2; ++K) {
      B.SetInsertPoint(Edge[K]);
      EmitEdge(P[K]);
    }
    return;
  }
  if (emitReplayedJoin(BB, EmitEdge))
    return;
  Value *From = Values.fromForward(PredIndex[BB], /*Direct=*/false);
  SmallVector<BasicBlock *, 4> Edges;
  for (BasicBlock *Pred : P)
    Edges.push_back(BasicBlock::Create(
        C, "rev.edge." + Pred->getName() + "." + BB->getName(), S.RevF));
  SwitchInst *Sw = B.CreateSwitch(From, Edges[0], P.size() - 1);
  for (unsigned K = 1; K < P.size(); ++K)
    Sw->addCase(B.getInt32(K), Edges[K]);
  for (unsigned K = 0; K < P.size(); ++K) {
    B.SetInsertPoint(Edges[K]);
    EmitEdge(P[K]);
  }
}

void ReverseControlFlow::emitReverseEntryAndExit() {
  IRBuilder<> &B = S.B;
  // Where the reverse sweep starts: seed the returned value's adjoint.
  Instruction *PrimalRet = S.ReturnBlock->getTerminator();
  Value *Seed = nullptr;
  if (S.Sig.ReturnActive && isDifferentiableType(S.Primal->getReturnType()))
    Seed =
        S.Combined ? S.RevF->getArg(S.RevF->arg_size() - 1) : S.RevF->getArg(0);
  if (S.Combined) {
    auto *Ret = cast<Instruction>(S.VMap[PrimalRet]);
    B.SetInsertPoint(Ret);
    if (Seed)
      Adjoints.addAdjoint(PrimalRet->getOperand(0), Seed);
    B.CreateBr(S.RevBlocks[S.ReturnBlock]);
    Ret->eraseFromParent();
  } else {
    B.SetInsertPoint(RevEntry);
    if (Seed)
      Adjoints.addAdjoint(PrimalRet->getOperand(0), Seed);
    B.CreateBr(S.RevBlocks[S.ReturnBlock]);
  }

  // Where it ends: return the adjoints of the active arguments.
  B.SetInsertPoint(RevExit);
  Value *Result = nullptr;
  Type *RetTy = S.RevF->getReturnType();
  if (!RetTy->isVoidTy()) {
    Result = PoisonValue::get(RetTy);
    unsigned Field = 0;
    for (auto [Arg, Act] : zip(S.Primal->args(), S.Sig.Args))
      if (Act == Activity::Active) {
        // Adding +0.0 turns an untouched accumulator's -0.0 into +0.0.
        Value *D = addPositiveZero(B, Adjoints.takeAdjoint(&Arg));
        Result = B.CreateInsertValue(Result, D, Field++);
      }
  }
  if (S.Combined)
    B.CreateCall(S.Ctx.Runtime.tapeFree(), {S.TapeRev});
  if (Result)
    B.CreateRet(Result);
  else
    B.CreateRetVoid();
}

std::optional<ReverseControlFlow::DecidingBranch>
ReverseControlFlow::decidingBranch(BasicBlock *BB) {
  auto [It, Inserted] = Deciding.try_emplace(BB);
  if (!Inserted)
    return It->second;
  SmallVector<BasicBlock *, 2> &P = S.Preds[BB];
  if (P.size() != 2 || S.LI.isLoopHeader(BB) || !S.DT.getNode(BB)->getIDom())
    return std::nullopt;
  BasicBlock *D = S.DT.getNode(BB)->getIDom()->getBlock();
  auto *Br = dyn_cast<BranchInst>(D->getTerminator());
  Loop *L = S.LI.getLoopFor(BB);
  if (!Br || !Br->isConditional() || S.LI.getLoopFor(D) != L ||
      Br->getSuccessor(0) == Br->getSuccessor(1))
    return std::nullopt;
  // The blocks one direction reaches before BB, within one iteration of the
  // enclosing loop (inner loops included).
  auto Side = [&](BasicBlock *Succ) {
    SmallPtrSet<BasicBlock *, 16> Seen;
    if (Succ == BB) {
      Seen.insert(D);
      return Seen;
    }
    SmallVector<BasicBlock *, 16> Work{Succ};
    Seen.insert(Succ);
    while (!Work.empty()) {
      BasicBlock *X = Work.pop_back_val();
      for (BasicBlock *Y : successors(X))
        if (Y != BB && Y != D &&
            (!L || (L->contains(Y) && Y != L->getHeader())) &&
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

struct ReverseControlFlow::ReplayStep {
  Value *Cond = nullptr; ///< Null: unconditional.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 2> Next; ///< (to, via)
};

bool ReverseControlFlow::planReplay(BasicBlock *J,
                                    MapVector<BasicBlock *, ReplayStep> &Plan) {
  // Which predecessor J was entered from is where the branches from its
  // immediate dominator D led. When every condition on the way can be
  // computed again at J's reverse block without the tape, the reverse
  // replays them: a copy of the branches from D to J, with each loop on
  // the way (not around J) stepped over to its one exit.
  SmallVector<BasicBlock *, 2> &P = S.Preds[J];
  DomTreeNode *Node = S.DT.getNode(J);
  if (S.LI.isLoopHeader(J) || !Node || !Node->getIDom())
    return false;
  BasicBlock *D = Node->getIDom()->getBlock();
  Loop *LJ = S.LI.getLoopFor(J);
  DenseSet<BasicBlock *> Active;
  constexpr unsigned MaxBlocks = 64;
  auto Legal = [&](Value *Cond) {
    auto *I = dyn_cast<Instruction>(Cond);
    return !I || S.DT.dominates(I->getParent(), J) ||
           Values.speculatableWithoutTape(Cond, 0);
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
    for (BasicBlock *To : successors(X)) {
      BasicBlock *Via = X;
      while (To != J && S.LI.isLoopHeader(To) &&
             !S.LI.getLoopFor(To)->contains(J)) {
        Loop *L = S.LI.getLoopFor(To);
        if (!L->getExitBlock() || !L->getExitingBlock())
          return false;
        Via = L->getExitingBlock();
        To = L->getExitBlock();
      }
      if (To == J) {
        if (!is_contained(P, Via))
          return false;
      } else if (To == D || !S.DT.dominates(D, To) ||
                 (LJ && (!LJ->contains(To) || To == LJ->getHeader())) ||
                 !Visit(To)) {
        return false;
      }
      Plan[X].Next.push_back({To, Via});
    }
    Active.erase(X);
    return true;
  };
  return Visit(D);
}

bool ReverseControlFlow::emitReplayedJoin(
    BasicBlock *J, function_ref<void(BasicBlock *)> EmitEdge) {
  MapVector<BasicBlock *, ReplayStep> Plan;
  if (!planReplay(J, Plan))
    return false;
  // Every predecessor must be where some path of the plan enters J.
  SmallVector<BasicBlock *, 2> &P = S.Preds[J];
  DenseMap<BasicBlock *, BasicBlock *> EdgeOf;
  for (auto &[X, St] : Plan)
    for (auto &[To, Via] : St.Next)
      if (To == J)
        EdgeOf[Via] = nullptr;
  if (EdgeOf.size() != P.size())
    return false;

  IRBuilder<> &B = S.B;
  LLVMContext &C = S.Ctx.M.getContext();
  for (BasicBlock *Pred : P)
    EdgeOf[Pred] = BasicBlock::Create(
        C, "rev.edge." + Pred->getName() + "." + J->getName(), S.RevF);
  DenseMap<BasicBlock *, BasicBlock *> Replay;
  for (auto &[X, St] : Plan)
    Replay[X] = BasicBlock::Create(
        C, "rev.replay." + X->getName() + "." + J->getName(), S.RevF);
  B.CreateBr(Replay[Plan.front().first]); // The immediate dominator.
  for (auto &[X, St] : Plan) {
    B.SetInsertPoint(Replay[X]);
    auto Target = [&](auto &Edge) {
      return Edge.first == J ? EdgeOf[Edge.second] : Replay[Edge.first];
    };
    if (St.Cond)
      B.CreateCondBr(Values.primalInReverse(St.Cond), Target(St.Next[0]),
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

void ReverseControlFlow::enterCountedLoops(BasicBlock *From, BasicBlock *To) {
  IRBuilder<> &B = S.B;
  // Values first (they may read the slots of enclosing loops), then stores.
  SmallVector<std::pair<Value *, AllocaInst *>, 4> Inits;
  for (Loop *L = S.LI.getLoopFor(To); L && !L->contains(From);
       L = L->getParentLoop()) {
    LoopEntries[L].push_back({From, B.GetInsertBlock()});
    auto It = S.Counted.find(L->getHeader());
    if (It == S.Counted.end())
      continue;
    for (const Recurrence &R : It->second.IVs)
      Inits.push_back(
          {Values.primalInReverse(R.Last), Values.inductionSlot(R)});
    const Recurrence &Counter = It->second.IVs[0];
    Inits.push_back(
        {Values.primalInReverse(Counter.Start), startSlot(It->second)});
  }
  for (auto &[V, Slot] : Inits)
    B.CreateStore(V, Slot);
}

AllocaInst *ReverseControlFlow::startSlot(const CountedLoop &CL) {
  AllocaInst *&Slot = StartSlots[CL.Header];
  if (!Slot)
    Slot = Adjoints.scratchSlot(CL.IVs[0].Phi->getType(),
                                CL.Header->getName() + ".rev.start");
  return Slot;
}

void ReverseControlFlow::emitCountedHeaderTerminator(
    const CountedLoop &CL,
    ArrayRef<std::pair<PHINode *, Value *>> PhiAdjoints) {
  IRBuilder<> &B = S.B;
  // Back at the counter's start: this was the first iteration, entered from
  // the preheader. Otherwise the previous iteration ended at the latch.
  const Recurrence &Counter = CL.IVs[0];
  Value *Current = Values.inductionInReverse(Counter);
  Value *Start = B.CreateLoad(Counter.Phi->getType(), startSlot(CL),
                              CL.Header->getName() + ".start");
  LLVMContext &C = S.Ctx.M.getContext();
  BasicBlock *ToPreheader =
      BasicBlock::Create(C, "rev.loop.enter." + CL.Header->getName(), S.RevF);
  BasicBlock *ToLatch =
      BasicBlock::Create(C, "rev.loop.back." + CL.Header->getName(), S.RevF);
  BackEdges[CL.Header] = ToLatch;
  B.CreateCondBr(B.CreateICmpEQ(Current, Start, "first.iteration"), ToPreheader,
                 ToLatch);

  auto PhiEdge = [&](BasicBlock *Pred) {
    for (auto &[Phi, D] : PhiAdjoints)
      Adjoints.addAdjoint(Phi->getIncomingValueForBlock(Pred), D);
  };
  B.SetInsertPoint(ToPreheader);
  PhiEdge(CL.Preheader);
  B.CreateBr(S.RevBlocks[CL.Preheader]);

  B.SetInsertPoint(ToLatch);
  for (const Recurrence &R : CL.IVs) {
    Value *V = Values.inductionInReverse(R);
    Value *Previous =
        V->getType()->isPointerTy()
            ? B.CreateGEP(B.getInt8Ty(), V, ConstantExpr::getNeg(R.Step))
            : B.CreateSub(V, R.Step);
    B.CreateStore(Previous, Values.inductionSlot(R));
  }
  PhiEdge(CL.Latch);
  B.CreateBr(S.RevBlocks[CL.Latch]);
}

} // namespace ad
