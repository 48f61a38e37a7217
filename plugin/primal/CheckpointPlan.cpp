//===- CheckpointPlan.cpp - What a time loop carries and writes -----------===//
//
// See CheckpointPlan.h.
//
//===----------------------------------------------------------------------===//
#include "primal/CheckpointPlan.h"
#include "core/PrimalMarks.h"
#include "rules/KnownFunctions.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {

namespace {

/// Whether \p S can be computed from values fixed before \p L.
bool fixedBefore(const SCEV *S, const Loop *L) {
  bool Ok = true;
  auto Visit = [&](const SCEV *X) {
    switch (X->getSCEVType()) {
    case scConstant:
    case scAddExpr:
    case scMulExpr:
    case scSignExtend:
    case scZeroExtend:
    case scTruncate:
    case scSMaxExpr:
    case scUMaxExpr:
    case scSMinExpr:
    case scUMinExpr:
    case scUDivExpr:
    case scPtrToInt:
      break;
    case scUnknown: {
      Value *V = cast<SCEVUnknown>(X)->getValue();
      if (auto *I = dyn_cast<Instruction>(V); I && L->contains(I))
        Ok = false;
      break;
    }
    default:
      Ok = false;
    }
  };
  SCEVExprContains(S, [&](const SCEV *X) {
    Visit(X);
    return false;
  });
  return Ok;
}

class Planner {
public:
  Planner(Function &F, Loop &L, LoopInfo &LI, ScalarEvolution &SE,
          DominatorTree &DT, AAResults &AA)
      : F(F), L(L), LI(LI), SE(SE), DT(DT), AA(AA), Intervals(SE) {}

  std::variant<Plan, Rejection> plan();

private:
  std::optional<Rejection> carried(Plan &P);
  std::optional<Rejection> writes(Plan &P);
  std::optional<Rejection> writesAfter(Plan &P);
  /// The range \p Address + [0, Size) takes over one step; nullopt if it
  /// is not bounded from values fixed before the loop.
  std::optional<WriteRange> rangeOf(Plan &P, Value *Address, const SCEV *Size,
                                    Instruction &At, const Loop *Within);

  /// What must hold for every loop from \p BB's out to \p Within (inside
  /// the time loop, or a top-level one after it) to be entered: the
  /// comparisons of the branches that decide exactly whether each loop's
  /// preheader runs in an iteration of its parent (its guard, an `if (n >
  /// 0)` around several loops). nullopt where one is not such a comparison
  /// of values at hand before the time loop.
  std::optional<Conjunction> entered(const BasicBlock *BB,
                                     const Loop *Within) const;
  /// Every path from \p From reaches \p To before \p Always (the parent's
  /// latch, or the return) or an exit of \p Parent.
  bool alwaysReaches(const BasicBlock *From, const BasicBlock *To,
                     const Loop *Parent, const BasicBlock *Always) const;
  /// Whether each loop from \p BB's out to (not including) \p Top leaves
  /// only at its latch, or only at its header where BB is the header: BB
  /// then runs once for each value ScalarEvolution counts its induction
  /// to (not one time fewer, which would put a snapshot's last bytes past
  /// the end of an array).
  bool storeCountedToBackedge(const BasicBlock *BB, const Loop *Top) const;
  /// Whether \p S is computed from values at hand before the loop.
  bool atHandBefore(const SCEV *S) const;

  Function &F;
  Loop &L;
  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  AAResults &AA;
  IntervalFinder Intervals;
};

std::optional<Rejection> Planner::carried(Plan &P) {
  BasicBlock *Pre = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  for (PHINode &Phi : L.getHeader()->phis()) {
    Type *T = Phi.getType();
    if (T->isIntegerTy() || T->isFloatingPointTy()) {
      P.Carried.push_back(&Phi);
      continue;
    }
    if (!T->isPointerTy())
      return Rejection{"it carries a value of a type it cannot keep"};
    if (P.ClassOf.count(&Phi))
      continue;
    // The class: phis reached through their values from the latch.
    SwapClass C;
    SmallVector<PHINode *, 4> Work{&Phi};
    while (!Work.empty()) {
      PHINode *X = Work.pop_back_val();
      if (is_contained(C.Phis, X))
        continue;
      C.Phis.push_back(X);
      auto *Next = dyn_cast<PHINode>(X->getIncomingValueForBlock(Latch));
      if (!Next || Next->getParent() != L.getHeader())
        return Rejection{"a pointer it carries moves (only pointers it swaps "
                         "can be kept)"};
      Work.push_back(Next);
      Value *Start = X->getIncomingValueForBlock(Pre);
      if (!is_contained(C.Starts, Start))
        C.Starts.push_back(Start);
      // And the phis whose value from the latch is X.
      for (PHINode &Y : L.getHeader()->phis())
        if (Y.getIncomingValueForBlock(Latch) == X)
          Work.push_back(&Y);
    }
    unsigned Index = P.Classes.size();
    for (PHINode *X : C.Phis) {
      if (P.ClassOf.count(X))
        return Rejection{"its swapped pointers do not form one cycle"};
      P.ClassOf[X] = Index;
      P.Carried.push_back(X);
    }
    P.Classes.push_back(std::move(C));
  }
  return std::nullopt;
}

bool Planner::storeCountedToBackedge(const BasicBlock *BB,
                                     const Loop *Top) const {
  // One exit: an early one skips the rest of its iteration, and a body
  // after a test in the header runs one time fewer than the header.
  for (const Loop *X = LI.getLoopFor(BB); X != Top; X = X->getParentLoop()) {
    const BasicBlock *Exiting = X->getExitingBlock();
    if (Exiting != X->getLoopLatch() &&
        !(Exiting == X->getHeader() && BB == Exiting))
      return false;
  }
  return true;
}

std::optional<Conjunction> Planner::entered(const BasicBlock *BB,
                                            const Loop *Within) const {
  Conjunction Conds;
  const BasicBlock *Return = nullptr;
  for (const BasicBlock &X : F)
    if (isa<ReturnInst>(X.getTerminator())) {
      if (Return)
        return std::nullopt; // Two ways out: which runs is not known.
      Return = &X;
    }
  if (!Return)
    return std::nullopt;
  if (!Within) {
    // Outside loops: after the time loop it must run on every path to the
    // return (not under an `if`); inside it, on every iteration.
    if (!L.contains(BB) && !DT.dominates(BB, Return))
      return std::nullopt;
    return Conds;
  }
  for (const Loop *K = LI.getLoopFor(BB); K != Within->getParentLoop();
       K = K->getParentLoop()) {
    const BasicBlock *Entry = K->getLoopPreheader();
    if (!Entry)
      return std::nullopt;
    // Where an iteration of the parent (or, after the time loop, the
    // function) always goes: from the entry up the dominator tree to there,
    // each branch on the way decides exactly whether the entry runs.
    const Loop *Parent = K->getParentLoop();
    const BasicBlock *Always = Parent ? Parent->getLoopLatch() : Return;
    for (const BasicBlock *B = Entry; !DT.dominates(B, Always);) {
      const BasicBlock *D = DT.getNode(B)->getIDom()->getBlock();
      // A loop before it in the same iteration (one after another in the
      // step): it leaves by one exit, towards B, whenever it is entered.
      if (const Loop *Before = LI.getLoopFor(D);
          Before && Before->getParentLoop() == Parent && !Before->contains(B) &&
          Before->getExitingBlock() == D && Before->getExitBlock() &&
          Before->getExitBlock()->getSinglePredecessor() == D &&
          DT.dominates(Before->getExitBlock(), B)) {
        if (!Before->getLoopPreheader() ||
            !alwaysReaches(Before->getExitBlock(), B, Parent, Always))
          return std::nullopt;
        B = Before->getLoopPreheader();
        continue;
      }
      auto *Br = dyn_cast<BranchInst>(D->getTerminator());
      auto *Cmp = Br && Br->isConditional()
                      ? dyn_cast<ICmpInst>(Br->getCondition())
                      : nullptr;
      if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy() ||
          !SE.isSCEVable(Cmp->getOperand(0)->getType()))
        return std::nullopt;
      int Toward = -1;
      for (unsigned K2 = 0; K2 < 2; ++K2)
        if (DT.dominates(Br->getSuccessor(K2), B) &&
            Br->getSuccessor(K2)->getSinglePredecessor() == D)
          Toward = Toward < 0 ? int(K2) : 2;
      if (Toward < 0 || Toward > 1 ||
          !alwaysReaches(Br->getSuccessor(Toward), B, Parent, Always))
        return std::nullopt;
      CmpInst::Predicate Pred = Cmp->getPredicate();
      if (Toward == 1)
        Pred = CmpInst::getInversePredicate(Pred);
      Compare C{Pred, SE.getSCEV(Cmp->getOperand(0)),
                SE.getSCEV(Cmp->getOperand(1))};
      if (!atHandBefore(C.Lhs) || !atHandBefore(C.Rhs))
        return std::nullopt;
      Conds.push_back(C);
      B = D;
    }
  }
  return Conds;
}

bool Planner::alwaysReaches(const BasicBlock *From, const BasicBlock *To,
                            const Loop *Parent,
                            const BasicBlock *Always) const {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    const BasicBlock *X = Work.pop_back_val();
    if (X == To || !Seen.insert(X).second)
      continue;
    if (X == Always || (Parent && !Parent->contains(X)))
      return false;
    append_range(Work, successors(X));
    if (succ_empty(X))
      return false;
  }
  return true;
}

bool Planner::atHandBefore(const SCEV *S) const {
  if (!fixedBefore(S, &L))
    return false;
  Instruction *Before = L.getLoopPreheader()->getTerminator();
  bool Ok = true;
  auto Visit = [&](const SCEV *X) {
    if (auto *U = dyn_cast<SCEVUnknown>(X))
      if (auto *I = dyn_cast<Instruction>(U->getValue());
          I && !DT.dominates(I, Before))
        Ok = false;
  };
  SCEVExprContains(S, [&](const SCEV *X) {
    Visit(X);
    return false;
  });
  return Ok;
}

std::optional<WriteRange> Planner::rangeOf(Plan &P, Value *Address,
                                           const SCEV *Size, Instruction &At,
                                           const Loop *Within) {
  if (!SE.isSCEVable(Address->getType()))
    return std::nullopt;
  const SCEV *S = SE.getSCEV(Address);
  auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(S));
  const SCEV *Offset = SE.removePointerBase(S);
  if (!Base || isa<SCEVCouldNotCompute>(Offset))
    return std::nullopt;
  WriteRange R;
  Value *BaseV = Base->getValue();
  if (auto *Phi = dyn_cast<PHINode>(BaseV); Phi && P.ClassOf.count(Phi)) {
    R.Class = P.ClassOf[Phi];
    R.ClassPhi = Phi;
  } else if (auto *I = dyn_cast<Instruction>(BaseV);
             I && !DT.dominates(I, L.getLoopPreheader()->getTerminator())) {
    return std::nullopt;
  } else {
    R.Base = BaseV;
  }
  std::optional<Interval> I = Intervals.over(Offset, Within);
  if (!I)
    return std::nullopt;
  std::optional<Interval> SizeI = Intervals.over(Size, Within);
  if (!SizeI)
    return std::nullopt;
  R.Lo = I->Lo;
  R.Hi = I->Hi;
  R.Size = SE.getTruncateOrZeroExtend(SizeI->Hi, R.Lo->getType());
  append_range(R.Assume, I->Assume);
  append_range(R.Assume, SizeI->Assume);
  if (!atHandBefore(R.Lo) || !atHandBefore(R.Hi) || !atHandBefore(R.Size))
    return std::nullopt;
  for (const Compare &Cmp : R.Assume)
    if (!atHandBefore(Cmp.Lhs) || !atHandBefore(Cmp.Rhs))
      return std::nullopt;
  // The loops' counts, and a copy's length, must not change with the
  // iterations of loops around them: the interval takes each term's
  // extreme on its own, which a triangular nest (for j = i; j < n) never
  // reaches at once (the largest start with the largest count: past the
  // end of the array).
  if (Within) {
    if (!SE.isLoopInvariant(Size, Within))
      return std::nullopt;
    for (const Loop *K = LI.getLoopFor(At.getParent());
         K != Within->getParentLoop(); K = K->getParentLoop()) {
      const SCEV *Count = SE.getBackedgeTakenCount(K);
      if (isa<SCEVCouldNotCompute>(Count) || !SE.isLoopInvariant(Count, Within))
        return std::nullopt;
    }
  }
  std::optional<Conjunction> Runs = entered(At.getParent(), Within);
  if (!Runs)
    return std::nullopt;
  R.Runs = std::move(*Runs);
  return R;
}

/// \p Call writes nothing a step's state holds: a marker, or a math
/// function (whose only write is errno, or lgamma's signgam), which runs
/// again with the step as it would have.
static bool writesNoProgramMemory(const CallBase &Call) {
  if (auto *II = dyn_cast<IntrinsicInst>(&Call);
      II && (II->isAssumeLikeIntrinsic() ||
             II->getIntrinsicID() == Intrinsic::lifetime_start ||
             II->getIntrinsicID() == Intrinsic::lifetime_end))
    return true;
  // frexp, modf, sincos write through a pointer: not these.
  if (any_of(Call.args(),
             [](const Use &A) { return A->getType()->isPointerTy(); }))
    return false;
  switch (classifyCallee(Call).Kind) {
  case CalleeKind::NoEffect:
  case CalleeKind::Math:
  case CalleeKind::LibraryState:
    return true;
  default:
    return false;
  }
}

/// The outermost loop below \p Top (or the top-level loop where Top is
/// null) that holds \p BB, or null if Top itself (no subloop) does.
static const Loop *outermostBelow(const Loop *Top, const BasicBlock *BB,
                                  const LoopInfo &LI) {
  const Loop *In = LI.getLoopFor(BB);
  if (In == Top)
    return nullptr;
  while (In->getParentLoop() != Top)
    In = In->getParentLoop();
  return In;
}

std::optional<Rejection> Planner::writes(Plan &P) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<AllocaInst>(I))
        return Rejection{"it allocates on the stack"};
      if (!I.mayWriteToMemory())
        continue;
      auto *Call = dyn_cast<CallBase>(&I);
      if (Call && writesNoProgramMemory(*Call))
        continue;
      if (Call && !isa<MemIntrinsic>(Call))
        return Rejection{"it calls a function that may write memory or "
                         "have other effects"};
      if (!isa<StoreInst>(I) && !Call)
        return Rejection{"it writes memory other than by stores"};
      // The store must run on every iteration of its own loop: the range
      // of its address over that loop is then memory the program writes.
      const Loop *Own = outermostBelow(&L, BB, LI);
      if (BasicBlock *Latch = LI.getLoopFor(BB)->getLoopLatch();
          !Latch || !DT.dominates(BB, Latch))
        return Rejection{"a store in it runs on some of its iterations only"};
      if (!storeCountedToBackedge(BB, &L))
        return Rejection{"a loop in it has an early exit, or leaves before "
                         "its body and cannot be rotated"};
      std::optional<WriteRange> R;
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        if (St->isVolatile() || St->isAtomic())
          return Rejection{"it stores atomically or volatile"};
        uint64_t Bytes = F.getDataLayout().getTypeStoreSize(
            St->getValueOperand()->getType());
        R = rangeOf(P, St->getPointerOperand(),
                    SE.getConstant(Type::getInt64Ty(F.getContext()), Bytes), I,
                    Own);
      } else {
        auto *MI = cast<MemIntrinsic>(Call);
        if (MI->isVolatile())
          return Rejection{"it stores atomically or volatile"};
        R = rangeOf(P, MI->getDest(), SE.getSCEV(MI->getLength()), I, Own);
      }
      if (!R)
        return Rejection{"the memory a store in it writes is not bounded by "
                         "values known before it"};
      P.Writes.push_back(*R);
    }
  return std::nullopt;
}

std::optional<Rejection> Planner::writesAfter(Plan &P) {
  // Steps run again during the reverse sweep read memory as it is then:
  // what the loop reads and does not write must not change after it, or
  // be saved with the snapshots where its range is known.
  SmallVector<Instruction *, 16> Reads;
  SmallVector<StoreInst *, 16> Stores;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (I.mayReadFromMemory())
        Reads.push_back(&I);
      if (auto *St = dyn_cast<StoreInst>(&I))
        Stores.push_back(St);
    }
  SmallPtrSet<BasicBlock *, 16> After;
  SmallVector<BasicBlock *, 16> Work{L.getExitBlock()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!After.insert(BB).second)
      continue;
    if (L.contains(BB))
      return Rejection{"it can be entered again"};
    append_range(Work, successors(BB));
  }
  for (BasicBlock *BB : After)
    for (Instruction &W : *BB) {
      if (!W.mayWriteToMemory() || isDeferredFree(W))
        continue;
      if (auto *Call = dyn_cast<CallBase>(&W);
          Call && writesNoProgramMemory(*Call))
        continue;
      auto *St = dyn_cast<StoreInst>(&W);
      // A call that may free or rewrite what the loop writes (not a
      // store, whose bytes the reverse puts back): the steps run again
      // would write there.
      if (auto *Call = dyn_cast<CallBase>(&W);
          Call && (any_of(Stores,
                          [&](StoreInst *S) {
                            return isModSet(
                                AA.getModRefInfo(Call, MemoryLocation::get(S)));
                          }) ||
                   any_of(L.blocks(), [&](BasicBlock *LB) {
                     return any_of(*LB, [](Instruction &I) {
                       return isa<MemIntrinsic>(I);
                     });
                   })))
        return Rejection{"a call after it may free or write memory it "
                         "writes"};
      bool Meets = any_of(Reads, [&](Instruction *R) {
        if (auto *Ld = dyn_cast<LoadInst>(R))
          return isModSet(AA.getModRefInfo(&W, MemoryLocation::get(Ld)));
        if (auto *Call = dyn_cast<CallBase>(R); Call && St)
          return isRefSet(AA.getModRefInfo(Call, MemoryLocation::get(St)));
        return true;
      });
      if (!Meets)
        continue;
      if (!St || St->isVolatile() || St->isAtomic())
        return Rejection{"what it reads may be written after it"};
      // A store at an address known before the loop: saved with the
      // snapshots (the loop does not change it).
      uint64_t Bytes =
          F.getDataLayout().getTypeStoreSize(St->getValueOperand()->getType());
      if (LI.getLoopFor(BB) &&
          (!storeCountedToBackedge(BB, nullptr) ||
           !DT.dominates(BB, LI.getLoopFor(BB)->getLoopLatch())))
        return Rejection{"what it reads may be written after it"};
      std::optional<WriteRange> R =
          rangeOf(P, St->getPointerOperand(),
                  SE.getConstant(Type::getInt64Ty(F.getContext()), Bytes), W,
                  outermostBelow(nullptr, BB, LI));
      if (!R || R->Class >= 0)
        return Rejection{"what it reads may be written after it"};
      R->AfterLoop = true;
      P.Writes.push_back(*R);
    }
  return std::nullopt;
}

std::variant<Plan, Rejection> Planner::plan() {
  Plan P;
  P.L = &L;
  BasicBlock *Pre = L.getLoopPreheader(), *Latch = L.getLoopLatch(),
             *Exit = L.getExitBlock();
  if (!Pre || !Latch || !Exit)
    return Rejection{"it has more than one latch or exit"};
  if (Exit->getSinglePredecessor() == nullptr)
    return Rejection{"its exit is shared"};
  if (auto R = carried(P))
    return *R;
  BasicBlock *Exiting = Exit->getSinglePredecessor();
  // A step is one whole iteration: a loop that leaves before its body
  // (and could not be rotated) would run a last step that writes nothing,
  // or none at all, where its ranges assume a body ran.
  if (Exiting != Latch)
    return Rejection{"it leaves before the end of its body"};
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (none_of(I.users(), [&](User *U) {
            return !L.contains(cast<Instruction>(U)->getParent());
          }))
        continue;
      PHINode *Of = nullptr;
      for (PHINode *Phi : P.Carried)
        if ((Exiting == Latch && Phi->getIncomingValueForBlock(Latch) == &I) ||
            (Exiting == L.getHeader() && Phi == &I))
          Of = Phi;
      if (!Of || !Of->getType()->isIntOrPtrTy())
        return Rejection{"a value it computes is used after it"};
      P.LiveOut.push_back({&I, Of});
    }
  if (auto R = writes(P))
    return *R;
  if (auto R = writesAfter(P))
    return *R;
  const SCEV *BTC = SE.getBackedgeTakenCount(&L);
  if (!isa<SCEVCouldNotCompute>(BTC) && fixedBefore(BTC, &L)) {
    Type *I64 = Type::getInt64Ty(F.getContext());
    P.TripCount =
        SE.getAddExpr(SE.getTruncateOrZeroExtend(BTC, I64), SE.getOne(I64));
  }
  return P;
}

} // namespace

std::variant<Plan, Rejection> planCheckpoint(Function &F, Loop &L, LoopInfo &LI,
                                             ScalarEvolution &SE,
                                             DominatorTree &DT, AAResults &AA) {
  return Planner(F, L, LI, SE, DT, AA).plan();
}

} // namespace ad
