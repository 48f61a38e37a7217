//===- StoreForwarding.cpp - Loads recomputed from what an earlier loop stored
////
//
// See StoreForwarding.h. The analysis (StoreForwarder::plan) only reads the
// IR and decides everything: which store feeds a load, which instructions of
// the stored expression to evaluate again, and which induction variable of
// the load's loop stands for each one of the store's. The rewrite clones
// what the plan lists. Rounds repeat while loads are replaced, since a value
// stored from a replaced load (y[j] = q[j] * xc[j]) may be forwarded in turn.
//
//===----------------------------------------------------------------------===//
#include "primal/StoreForwarding.h"
#include "analysis/MemoryEffects.h"
#include "core/PrimalMarks.h"
#include "rules/CallRows.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "ad-store-forwarding"

using namespace llvm;

static cl::opt<bool> ForwardStores(
    "ad-forward-stores", cl::init(true), cl::Hidden,
    cl::desc("Recompute loads of values an earlier loop stored in gradients "
             "(on by default)"));

namespace ad {

namespace {

/// Instructions of a stored expression evaluated again at most: the
/// forward sweep runs them a second time, so only cheap expressions.
constexpr unsigned MaxCloned = 16;
/// Rounds of forwarding (each may enable the next, through a chain of
/// scratch buffers).
constexpr unsigned MaxRounds = 4;

/// What replacing one load takes: the instructions of the stored
/// expression to clone (operands before users) and, for each induction
/// variable of the storing loop among their operands, the load loop's.
struct Plan {
  LoadInst *Load;
  StoreInst *Store;
  SmallVector<Instruction *, 8> Cloned;
  SmallVector<std::pair<PHINode *, PHINode *>, 2> Inductions;
};

class StoreForwarder {
public:
  StoreForwarder(Function &F, FunctionAnalysisManager &FAM)
      : F(F), LI(FAM.getResult<LoopAnalysis>(F)),
        DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(F)),
        AAR(FAM.getResult<AAManager>(F)) {
    // Only gradients are rewritten: their deferred frees run after the
    // reverse sweep (DeferredFrees.h).
    for (Instruction &I : instructions(F))
      if (writesProgramMemory(I) && !isDeferredFree(I))
        Writers.push_back(&I);
  }

  /// Every load of the function that can be forwarded, in program order.
  SmallVector<Plan, 8> plans();

private:
  std::optional<Plan> plan(LoadInst &Ld);
  /// The store that last wrote what \p Ld reads, under the header's first
  /// two rules, with its loop; nullptr if none.
  StoreInst *feedingStore(LoadInst &Ld, const SCEVAddRecExpr &At,
                          const Loop *&A);
  /// \p St's writes can have reached \p Ld unchanged: no other write that
  /// may run in between may write \p Ld's memory.
  bool nothingWritesBetween(const StoreInst &St, LoadInst &Ld,
                            const Loop *Parent);
  /// Adds what evaluating \p V again in loop \p B at \p Ld takes to \p P
  /// (V is an operand of the expression stored in loop \p A).
  bool collect(Value *V, const Loop &A, const Loop &B, LoadInst &Ld, Plan &P,
               SmallPtrSetImpl<Value *> &Seen);
  /// B's induction variable with the same start and step as \p Phi (one of
  /// A's), or nullptr.
  PHINode *matchingInduction(PHINode &Phi, const Loop &A, const Loop &B);
  /// No write of the function may change what \p Ld reads.
  bool unchangedMemory(const LoadInst &Ld);

  Function &F;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  AAResults &AAR;
  SmallVector<Instruction *, 32> Writers;
};

} // namespace

SmallVector<Plan, 8> StoreForwarder::plans() {
  SmallVector<Plan, 8> Plans;
  // Irreducible cycles are not loops: the last run of a loop before a load
  // could then be in another pass around such a cycle.
  ReversePostOrderTraversal<Function *> RPOT(&F);
  if (LI.empty() || containsIrreducibleCFG<const BasicBlock *>(RPOT, LI))
    return Plans;
  for (Instruction &I : instructions(F))
    if (auto *Ld = dyn_cast<LoadInst>(&I))
      if (std::optional<Plan> P = plan(*Ld))
        Plans.push_back(std::move(*P));
  return Plans;
}

std::optional<Plan> StoreForwarder::plan(LoadInst &Ld) {
  if (!Ld.isSimple() || !Ld.getType()->isFPOrFPVectorTy() ||
      !LI.getLoopFor(Ld.getParent()))
    return std::nullopt;
  auto *At = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ld.getPointerOperand()));
  if (!At || !At->isAffine() || !At->getLoop()->contains(&Ld))
    return std::nullopt;
  const Loop *A = nullptr;
  StoreInst *St = feedingStore(Ld, *At, A);
  if (!St || !nothingWritesBetween(*St, Ld, A->getParentLoop()))
    return std::nullopt;
  Plan P{&Ld, St, {}, {}};
  SmallPtrSet<Value *, 16> Seen;
  if (!collect(St->getValueOperand(), *A, *At->getLoop(), Ld, P, Seen))
    return std::nullopt;
  LLVM_DEBUG(dbgs() << "ad-store-forwarding: " << Ld << "\n  from " << *St
                    << " (" << P.Cloned.size() << " instructions)\n");
  return P;
}

StoreInst *StoreForwarder::feedingStore(LoadInst &Ld, const SCEVAddRecExpr &At,
                                        const Loop *&A) {
  const Loop *B = At.getLoop();
  const SCEV *Trips = SE.getBackedgeTakenCount(B);
  const DataLayout &DL = F.getDataLayout();
  TypeSize Size = DL.getTypeStoreSize(Ld.getType());
  auto *Step = dyn_cast<SCEVConstant>(At.getStepRecurrence(SE));
  if (isa<SCEVCouldNotCompute>(Trips) || !Step || Size.isScalable() ||
      Step->getAPInt().abs().ult(Size.getFixedValue()))
    return nullptr;
  for (Instruction &I : instructions(F)) {
    auto *St = dyn_cast<StoreInst>(&I);
    if (!St || !St->isSimple() ||
        St->getValueOperand()->getType() != Ld.getType())
      continue;
    auto *SA = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(St->getPointerOperand()));
    if (!SA || SA->getStart() != At.getStart() ||
        SA->getStepRecurrence(SE) != Step || SA->getLoop() == B ||
        SA->getLoop()->getParentLoop() != B->getParentLoop())
      continue;
    const Loop *Candidate = SA->getLoop();
    // Every iteration of A stores: its only exit is its latch, which the
    // store dominates, and its store is not in a loop nested inside it.
    BasicBlock *Latch = Candidate->getLoopLatch();
    if (LI.getLoopFor(St->getParent()) != Candidate || !Latch ||
        Candidate->getExitingBlock() != Latch ||
        !DT.dominates(St->getParent(), Latch) ||
        !DT.dominates(Candidate->getHeader(), Ld.getParent()))
      continue;
    // B runs no more iterations than A, so A wrote all that B reads.
    const SCEV *StoreTrips = SE.getBackedgeTakenCount(Candidate);
    if (isa<SCEVCouldNotCompute>(StoreTrips) ||
        StoreTrips->getType() != Trips->getType() ||
        (StoreTrips != Trips &&
         !SE.isKnownPredicate(ICmpInst::ICMP_ULE, Trips, StoreTrips)))
      continue;
    A = Candidate;
    return St;
  }
  return nullptr;
}

bool StoreForwarder::nothingWritesBetween(const StoreInst &St, LoadInst &Ld,
                                          const Loop *Parent) {
  // Within one iteration of the parent, between A and the load; asked
  // about any offset from the load's address, since the address moves.
  MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(Ld.getPointerOperand());
  return none_of(Writers, [&](Instruction *W) {
    return W != &St && (!Parent || Parent->contains(W)) &&
           mayWrite(AAR, W, Loc);
  });
}

bool StoreForwarder::unchangedMemory(const LoadInst &Ld) {
  if (!Ld.isSimple())
    return false;
  MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(Ld.getPointerOperand());
  return none_of(Writers,
                 [&](Instruction *W) { return mayWrite(AAR, W, Loc); });
}

PHINode *StoreForwarder::matchingInduction(PHINode &Phi, const Loop &A,
                                           const Loop &B) {
  auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
  if (!Rec || Rec->getLoop() != &A || !Rec->isAffine())
    return nullptr;
  for (PHINode &Other : B.getHeader()->phis()) {
    auto *OR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Other));
    if (Other.getType() == Phi.getType() && OR && OR->getLoop() == &B &&
        OR->getStart() == Rec->getStart() &&
        OR->getStepRecurrence(SE) == Rec->getStepRecurrence(SE))
      return &Other;
  }
  return nullptr;
}

/// Arithmetic that has no effect and reads no memory: evaluated again on
/// the operands it had, it gives the value it gave.
static bool isPureArithmetic(const Instruction &I) {
  if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<CastInst>(I) ||
      isa<GetElementPtrInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I))
    return true;
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && !II->mayReadOrWriteMemory() && !II->mayHaveSideEffects() &&
         II->getType()->isFPOrFPVectorTy();
}

bool StoreForwarder::collect(Value *V, const Loop &A, const Loop &B,
                             LoadInst &Ld, Plan &P,
                             SmallPtrSetImpl<Value *> &Seen) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !Seen.insert(V).second)
    return true;
  // Computed before A (it is used inside): the same value at the load.
  if (!A.contains(I))
    return DT.dominates(I, &Ld);
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    PHINode *Mapped = matchingInduction(*Phi, A, B);
    if (!Mapped)
      return false;
    P.Inductions.push_back({Phi, Mapped});
    return true;
  }
  // Not from a loop inside A (an LCSSA phi would have stopped us anyway).
  if (LI.getLoopFor(I->getParent()) != &A)
    return false;
  auto *Load = dyn_cast<LoadInst>(I);
  if (!(Load ? unchangedMemory(*Load) : isPureArithmetic(*I)))
    return false;
  for (Value *Op : I->operands())
    if (!collect(Op, A, B, Ld, P, Seen))
      return false;
  P.Cloned.push_back(I);
  return P.Cloned.size() <= MaxCloned;
}

/// Evaluates \p P's expression again before its load and replaces the load.
static void rewrite(const Plan &P) {
  LoadInst *Ld = P.Load;
  DenseMap<Value *, Value *> VMap;
  for (auto [From, To] : P.Inductions)
    VMap[From] = To;
  for (Instruction *I : P.Cloned) {
    Instruction *C = I->clone();
    C->setName(I->getName() + ".fwd");
    C->insertBefore(Ld->getIterator());
    for (Use &Op : C->operands())
      if (Value *Mapped = VMap.lookup(Op.get()))
        Op.set(Mapped);
    VMap[I] = C;
  }
  Value *Stored = P.Store->getValueOperand();
  Value *V = VMap.lookup(Stored);
  Ld->replaceAllUsesWith(V ? V : Stored);
  Ld->eraseFromParent();
}

/// The stores into \p Alloc (malloc, calloc) when nothing reads it: its
/// every use, through address arithmetic, is a store through it or a free;
/// nullopt otherwise.
static std::optional<SmallVector<StoreInst *, 4>> unreadStores(Value *Alloc) {
  auto *Call = dyn_cast<CallBase>(Alloc);
  if (!Call || (rowOf(*Call).Kind != CalleeKind::Malloc &&
                rowOf(*Call).Kind != CalleeKind::Calloc))
    return std::nullopt;
  SmallVector<StoreInst *, 4> Stores;
  SmallVector<Value *, 8> Work{Alloc};
  SmallPtrSet<Value *, 8> Seen{Alloc};
  while (!Work.empty()) {
    Value *P = Work.pop_back_val();
    for (Use &U : P->uses()) {
      auto *I = cast<Instruction>(U.getUser());
      auto *St = dyn_cast<StoreInst>(I);
      if (St && U.getOperandNo() == St->getPointerOperandIndex() &&
          St->isSimple()) {
        Stores.push_back(St);
      } else if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
      } else if (auto *Free = dyn_cast<CallBase>(I);
                 !Free || P != Alloc || rowOf(*Free).Kind != CalleeKind::Free) {
        if (!isa<DbgInfoIntrinsic>(I))
          return std::nullopt;
      }
    }
  }
  return Stores;
}

/// Forwarding may have replaced the last loads of a scratch allocation
/// (GMM's xcentered): its stores are dead then, but would still be
/// differentiated, a zero adjoint moved to the stored expression's operands
/// on every store. Drops them.
static void dropUnreadStores(ArrayRef<Plan> Plans) {
  SmallSetVector<Value *, 4> Objects;
  for (const Plan &P : Plans)
    Objects.insert(getUnderlyingObject(P.Store->getPointerOperand()));
  for (Value *Obj : Objects)
    if (std::optional<SmallVector<StoreInst *, 4>> Stores = unreadStores(Obj))
      for (StoreInst *St : *Stores) {
        Value *Ptr = St->getPointerOperand(), *Val = St->getValueOperand();
        St->eraseFromParent();
        RecursivelyDeleteTriviallyDeadInstructions(Ptr);
        RecursivelyDeleteTriviallyDeadInstructions(Val);
      }
}

unsigned forwardStoredValues(Function &F, FunctionAnalysisManager &FAM) {
  if (!ForwardStores)
    return 0;
  unsigned Total = 0;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    SmallVector<Plan, 8> Plans = StoreForwarder(F, FAM).plans();
    if (Plans.empty())
      break;
    for (const Plan &P : Plans)
      rewrite(P);
    dropUnreadStores(Plans);
    Total += Plans.size();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    FAM.invalidate(F, PA);
  }
  return Total;
}

} // namespace ad
