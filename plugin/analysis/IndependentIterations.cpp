//===- IndependentIterations.cpp - Loop nests whose iterations share nothing =//
#include "analysis/IndependentIterations.h"
#include "analysis/OverwriteConditions.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// Instructions that are more than integer control: they touch memory, have
/// other effects, or compute in floating point. (Markers of lifetimes and
/// assumptions say nothing a derivative needs.)
static bool doesWork(const Instruction &I) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
      return false;
  auto IsFP = [](const Value *V) {
    return V->getType()->getScalarType()->isFloatingPointTy();
  };
  return IsFP(&I) || any_of(I.operands(), IsFP) || I.mayHaveSideEffects() ||
         I.mayReadOrWriteMemory();
}

/// A math function's row ignores errno: the call touches no memory.
static bool isMathCall(const Instruction &I) {
  auto *Call = dyn_cast<CallInst>(&I);
  return Call && classifyCallee(*Call).Rule;
}

static std::string lineOf(const Loop &L) {
  if (DebugLoc Loc = L.getStartLoc())
    return " at line " + std::to_string(Loc.getLine());
  return "";
}

static std::string lineOf(const Instruction &I) {
  if (const DebugLoc &Loc = I.getDebugLoc())
    return " at line " + std::to_string(Loc.getLine());
  return "";
}

namespace {

/// The footprint proof of the header comment.
class FootprintProof {
public:
  FootprintProof(Function &F, FunctionAnalysisManager &FAM,
                 IndependentNest &Nest)
      : SE(FAM.getResult<ScalarEvolutionAnalysis>(F)),
        LI(FAM.getResult<LoopAnalysis>(F)),
        DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        AA(FAM.getResult<AAManager>(F)), I64(Type::getInt64Ty(F.getContext())),
        Intervals(SE), Nest(Nest) {}

  bool prove(ArrayRef<Instruction *> Accesses, std::string &WhyNot);

private:
  std::optional<Access> accessOf(Instruction *I);
  bool footprint(ArrayRef<Access> OfBase, std::string &WhyNot);
  /// A <= B: shown, or left to the run-time checks; false if shown not to
  /// hold or not checkable before the nest.
  bool atMost(const SCEV *A, const SCEV *B);
  bool invariant(const SCEV *S) { return SE.isLoopInvariant(S, Nest.Loops[0]); }

  ScalarEvolution &SE;
  LoopInfo &LI;
  DominatorTree &DT;
  AAResults &AA;
  Type *I64;
  IntervalFinder Intervals;
  IndependentNest &Nest;
};

} // namespace

std::optional<Access> FootprintProof::accessOf(Instruction *I) {
  // (A memcpy or memmove is no plain write: the nest refuses it before.)
  return accessOfInstruction(I, SE, LI, Intervals);
}

bool FootprintProof::atMost(const SCEV *A, const SCEV *B) {
  if (SE.isKnownPredicate(ICmpInst::ICMP_SLE, A, B))
    return true;
  if (SE.isKnownPredicate(ICmpInst::ICMP_SGT, A, B) || !invariant(A) ||
      !invariant(B))
    return false;
  Nest.Checks.push_back({ICmpInst::ICMP_SLE, A, B});
  return true;
}

namespace {

/// Rewrites zero extensions that the guards of \p Block show to be of
/// non-negative values into sign extensions: a memset of a row's padding,
/// `for (i = V; i < Vp; i++)` made one call of length zext(Vp - V - 1) * 4
/// + 4 under `if (V < Vp)`, is then as long as it is where it runs, and
/// where it does not (V >= Vp) no longer four billion elements long.
class GuardedExtensions : public SCEVRewriteVisitor<GuardedExtensions> {
public:
  GuardedExtensions(ScalarEvolution &SE, const BasicBlock &Block)
      : SCEVRewriteVisitor(SE), Block(Block) {}
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *Z) {
    const SCEV *X = visit(Z->getOperand());
    const SCEV *Zero = SE.getZero(X->getType());
    if (SE.isBasicBlockEntryGuardedByCond(&Block, ICmpInst::ICMP_SGE, X, Zero))
      return SE.getSignExtendExpr(X, Z->getType());
    if (!Guard)
      return SE.getZeroExtendExpr(X, Z->getType());
    // Where the block's guard holds, checked at run time.
    Unshown.push_back({ICmpInst::ICMP_SGE, X, Zero});
    return SE.getSignExtendExpr(X, Z->getType());
  }

  /// The branch condition that decides whether the block runs, where it is
  /// one value for the whole nest, and the side that runs it.
  Value *Guard = nullptr;
  bool GuardRuns = true;
  /// What the guard must imply for the rewrite (with Guard set).
  Conjunction Unshown;

private:
  const BasicBlock &Block;
};

} // namespace

bool FootprintProof::footprint(ArrayRef<Access> OfBase, std::string &WhyNot) {
  Loop *Body = Nest.innermost();
  // Each access's interval in one iteration, from one reference address
  // (the first placed access's lowest) that moves with the iterations.
  const SCEV *Reference = nullptr, *MinLo = nullptr, *MaxEnd = nullptr;
  SmallVector<const Access *, 2> Unplaced;
  for (const Access &A : OfBase) {
    const Loop *Inside = outermostInside(A.L, Body);
    auto Off = Intervals.over(A.Offset, Inside);
    auto Size = Intervals.over(A.Size, Inside);
    const SCEV *Lo = nullptr, *End = nullptr;
    if (Off && Size) {
      BasicBlock *Block = A.I->getParent();
      GuardedExtensions Guarded(SE, *Block);
      auto *Branch = Block->getSinglePredecessor()
                         ? dyn_cast<BranchInst>(
                               Block->getSinglePredecessor()->getTerminator())
                         : nullptr;
      if (Branch && Branch->isConditional() &&
          Branch->getSuccessor(0) != Branch->getSuccessor(1) &&
          SE.isSCEVable(Branch->getCondition()->getType()) &&
          invariant(SE.getSCEV(Branch->getCondition()))) {
        Guarded.Guard = Branch->getCondition();
        Guarded.GuardRuns = Branch->getSuccessor(0) == Block;
      }
      Lo = Guarded.visit(Off->Lo);
      End = Guarded.visit(SE.getAddExpr(Off->Hi, Size->Hi));
      for (const Compare &C : Guarded.Unshown)
        if (!invariant(C.Lhs))
          return false;
      for (const Compare &C : Guarded.Unshown)
        Nest.GuardedChecks.push_back({Guarded.Guard, Guarded.GuardRuns, C});
      if (!Reference)
        Reference = Lo;
      Lo = SE.getMinusSCEV(Lo, Reference);
      End = SE.getMinusSCEV(End, Reference);
    }
    if (!Lo || !invariant(Lo) || !invariant(End)) {
      // A load at an offset the program loads, once per iteration.
      bool Inspectable = isa<LoadInst>(A.I) && A.L == Body &&
                         DT.dominates(A.I->getParent(), Body->getLoopLatch());
      if (!Inspectable) {
        WhyNot = "an access" + lineOf(*A.I) +
                 " at an offset the compiler cannot place in one iteration";
        return false;
      }
      Unplaced.push_back(&A);
      continue;
    }
    for (const Compare &C : Off->Assume)
      Nest.Checks.push_back(C);
    for (const Compare &C : Size->Assume)
      Nest.Checks.push_back(C);
    for (const Compare &C : A.Assume)
      Nest.Checks.push_back(C);
    MinLo = MinLo ? SE.getSMinExpr(MinLo, Lo) : Lo;
    MaxEnd = MaxEnd ? SE.getSMaxExpr(MaxEnd, End) : End;
  }
  if (!Reference) {
    WhyNot = "no access" + lineOf(*OfBase[0].I) +
             " to this memory the compiler can place in one iteration";
    return false;
  }
  // The reference's stride per loop of the nest, innermost first (the
  // outer loops' recurrences are the inner ones' starts).
  const SCEV *Span = SE.getMinusSCEV(MaxEnd, MinLo);
  const SCEV *Rest = Reference;
  for (Loop *L : reverse(Nest.Loops)) {
    auto Rec = recurrenceOf(SE, Rest, L);
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (!Rec || isa<SCEVCouldNotCompute>(Taken) || !invariant(Rec->second) ||
        !invariant(Taken)) {
      WhyNot = "the loop" + lineOf(*L) +
               " moves through memory an iteration writes by no fixed stride";
      return false;
    }
    const SCEV *Stride = Rec->second;
    if (!atMost(Span, Stride)) {
      WhyNot = "iterations of the loop" + lineOf(*L) +
               " touch overlapping memory (the access" + lineOf(*OfBase[0].I) +
               ")";
      return false;
    }
    Span = SE.getAddExpr(
        SE.getMulExpr(Stride, SE.getTruncateOrZeroExtend(Taken, I64)), Span);
    Rest = Rec->first;
  }
  for (const Access *A : Unplaced)
    Nest.Inspected.push_back(
        {A->I, SE.getMinusSCEV(A->Offset, Reference), A->Size, MinLo, MaxEnd});
  return true;
}

bool FootprintProof::prove(ArrayRef<Instruction *> Accesses,
                           std::string &WhyNot) {
  // The accesses by the object they address.
  MapVector<const SCEV *, SmallVector<Access, 4>> ByBase;
  SmallPtrSet<const SCEV *, 4> Written;
  for (Instruction *I : Accesses) {
    std::optional<Access> A = accessOf(I);
    if (!A) {
      WhyNot = "an access" + lineOf(*I) + " to memory the compiler cannot name";
      return false;
    }
    if (I->mayWriteToMemory())
      Written.insert(A->Base);
    ByBase[A->Base].push_back(*A);
  }
  // Objects the nest writes apart from every other it touches.
  for (const SCEV *W : Written)
    for (auto &[Base, OfBase] : ByBase) {
      if (Base == W)
        continue;
      Value *X = cast<SCEVUnknown>(W)->getValue();
      Value *Y = cast<SCEVUnknown>(Base)->getValue();
      if (!AA.isNoAlias(MemoryLocation::getBeforeOrAfter(X),
                        MemoryLocation::getBeforeOrAfter(Y))) {
        WhyNot = "an access" + lineOf(*OfBase[0].I) +
                 " may touch memory that another pointer writes";
        return false;
      }
    }
  for (const SCEV *W : Written)
    if (!footprint(ByBase[W], WhyNot))
      return false;
  return true;
}

/// Every dependence between two of \p Accesses, one a write, within one
/// iteration of each of \p Nest's loops, at compile time.
static bool dependencesWithin(Function &F, FunctionAnalysisManager &FAM,
                              const IndependentNest &Nest,
                              ArrayRef<Instruction *> Accesses,
                              std::string &WhyNot) {
  DependenceInfo &DI = FAM.getResult<DependenceAnalysis>(F);
  for (unsigned A = 0; A < Accesses.size(); ++A)
    for (unsigned B = A; B < Accesses.size(); ++B) {
      Instruction *Src = Accesses[A], *Dst = Accesses[B];
      if (!Src->mayWriteToMemory() && !Dst->mayWriteToMemory())
        continue;
      if (isa<MemIntrinsic>(Src) || isa<MemIntrinsic>(Dst)) {
        WhyNot = "a memory operation" + lineOf(*Src) +
                 " the dependence analysis does not place";
        return false;
      }
      std::unique_ptr<Dependence> D = DI.depends(Src, Dst);
      if (!D)
        continue;
      bool Within = !D->isConfused() && D->getLevels() >= Nest.Loops.size();
      for (unsigned Level = 1; Within && Level <= Nest.Loops.size(); ++Level)
        Within = D->getDirection(Level) == Dependence::DVEntry::EQ;
      if (Within)
        continue;
      WhyNot = "an access" + lineOf(*Dst) +
               " may touch memory another iteration's access" + lineOf(*Src) +
               " writes or reads";
      if (!Dst->mayWriteToMemory())
        WhyNot = "an access" + lineOf(*Src) +
                 " may write memory another iteration's access" + lineOf(*Dst) +
                 " reads";
      return false;
    }
  return true;
}

IndependentNest findIndependentNest(Function &F, FunctionAnalysisManager &FAM,
                                    std::string &WhyNot) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  // The innermost loop around all the work...
  Loop *Around = nullptr;
  bool First = true;
  for (Instruction &I : instructions(F)) {
    if (!doesWork(I))
      continue;
    Loop *L = LI.getLoopFor(I.getParent());
    if (First)
      Around = L, First = false;
    while (Around && !Around->contains(L))
      Around = Around->getParentLoop();
    if (!Around)
      return {};
  }
  // ... whose iterations run loops of their own: an elementwise loop gains
  // nothing (its iterations tape no more than a few values).
  while (Around && Around->isInnermost())
    Around = Around->getParentLoop();
  if (!Around)
    return {};
  IndependentNest Nest;
  for (Loop *L = Around; L; L = L->getParentLoop())
    Nest.Loops.insert(Nest.Loops.begin(), L);

  // Loads, stores and memset: other calls that touch memory are not placed.
  SmallVector<Instruction *, 16> Accesses;
  for (BasicBlock *BB : Around->blocks())
    for (Instruction &I : *BB) {
      if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && !Ld->isSimple()) {
        WhyNot = "a volatile or atomic access" + lineOf(I);
        return {};
      }
      if (auto *St = dyn_cast<StoreInst>(&I); St && !St->isSimple()) {
        WhyNot = "a volatile or atomic access" + lineOf(I);
        return {};
      }
      if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<MemSetInst>(I)) {
        Accesses.push_back(&I);
      } else if (auto *Call = dyn_cast<CallBase>(&I);
                 Call && isExtremeSearch(*Call)) {
        continue; // Its reads are among the accesses of the loop before it.
      } else if (I.mayReadOrWriteMemory() && doesWork(I) && !isMathCall(I)) {
        WhyNot = "a call that touches memory" + lineOf(I);
        return {};
      }
    }

  std::string NoFootprint;
  if (FootprintProof(F, FAM, Nest).prove(Accesses, NoFootprint))
    return Nest;
  Nest.Checks.clear();
  Nest.GuardedChecks.clear();
  Nest.Inspected.clear();
  std::string NoDependence;
  if (dependencesWithin(F, FAM, Nest, Accesses, NoDependence))
    return Nest;
  WhyNot = NoFootprint;
  return {};
}

} // namespace ad
