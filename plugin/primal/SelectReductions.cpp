//===- SelectReductions.cpp - Running extremes read back after their loop -===//
//
// See SelectReductions.h. Matching (selectReductionOf) only reads the IR;
// all chains of the function are found first and rewritten after, so the
// analyses the matcher asks for stay valid while it runs.
//
//===----------------------------------------------------------------------===//
#include "primal/SelectReductions.h"
#include "analysis/MemoryEffects.h"
#include "rules/KnownFunctions.h"
#include "rules/MathRules.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

static cl::opt<bool> ReadBackExtremes(
    "ad-read-back-extremes", cl::init(true), cl::Hidden,
    cl::desc("Read running extremes back after their loops (on by default)"));

namespace ad {

namespace {

/// m = phi [Start, preheader], [Next, latch] with Next = select(C, X, m)
/// (or select(C, m, X)): each iteration may replace m by the loaded X.
struct SelectReduction {
  const Loop *L;
  PHINode *Running;
  Value *Start;
  SelectInst *Next;
  /// Where the chosen element is: the load that reads it, or the store that
  /// writes it (the element computed in the loop).
  Instruction *Element;
  /// The loop's only exit edge: Latch -> Exit.
  BasicBlock *Latch, *Exit;
  /// The uses of Next past the exit, which read the element again instead.
  SmallVector<Use *, 4> Outside;
  /// Where the chain keeps the strictly largest (or smallest) element and
  /// the elements lie Step bytes apart from the first one's address:
  /// whether it keeps the largest, and that address (expanded before the
  /// loop); null where the chosen address is tracked instead.
  bool Largest = false;
  const SCEV *FirstAddress = nullptr;
  int64_t Step = 0;
  Value *First = nullptr;
};

} // namespace

/// Users of the running value that carry no derivative: comparisons (the
/// condition that chooses an element, usually).
static bool onlyComparedOrChosen(const Instruction &V,
                                 const Instruction &Allowed, const Loop &L) {
  return all_of(V.users(), [&](const User *U) {
    auto *I = cast<Instruction>(U);
    return I == &Allowed || isa<CmpInst>(I) || !L.contains(I);
  });
}

/// No instruction of \p L may write where \p Element loads from (or, for
/// the store that keeps an element, no instruction but that store), so the
/// location still holds the chosen element when the loop has ended.
static bool loopLeavesElement(const Loop &L, Instruction &Element,
                              AAResults &AAR) {
  // The address changes from one iteration to the next: ask about every
  // offset from it, which is the whole object it points into. Every write
  // counts, lifetime markers included (writesProgramMemory skips them): the
  // reload happens after the loop, where a slot the loop ended is dead.
  MemoryLocation Loc =
      MemoryLocation::getBeforeOrAfter(getLoadStorePointerOperand(&Element));
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (&I != &Element && I.mayWriteToMemory() && mayWrite(AAR, &I, Loc))
        return false;
  return true;
}

/// Where the chosen value \p X is computed in \p L rather than loaded:
/// the store of X that runs on every iteration, to an address that moves by
/// at least the value's size each iteration (a simple add recurrence that
/// does not wrap), so that no later iteration's store overwrites it. A
/// softmax's scores, stored as they are computed while their maximum is
/// kept, are read back so.
static StoreInst *storeKeeping(Value *X, const Loop &L, DominatorTree &DT,
                               ScalarEvolution &SE) {
  BasicBlock *Latch = L.getLoopLatch();
  for (User *U : X->users()) {
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getValueOperand() != X || !Store->isSimple() ||
        !L.contains(Store) || !DT.dominates(Store->getParent(), Latch))
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Store->getPointerOperand()));
    if (!AR || AR->getLoop() != &L || !AR->isAffine() || !AR->hasNoSelfWrap())
      continue;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    uint64_t Size =
        Store->getDataLayout().getTypeStoreSize(X->getType()).getFixedValue();
    if (Step && Step->getAPInt().abs().uge(Size))
      return Store;
  }
  return nullptr;
}

/// Whether the chain keeps the strictly largest or smallest element (x > m
/// or x < m chooses x: the first of equal extremes), elements of float or
/// double a constant number of bytes apart: then the chosen one is the first
/// element equal to the final value, and a search after the loop finds it,
/// where tracking its address would cost the loop two selects an iteration
/// and, under -ffast-math, its vectorization. Fills R's search fields.
static void findBySearch(SelectReduction &R, Value *X, ScalarEvolution &SE) {
  auto *Cmp = dyn_cast<FCmpInst>(R.Next->getCondition());
  if (!Cmp || R.Next->getTrueValue() != X ||
      R.Next->getFalseValue() != R.Running)
    return;
  Type *Ty = X->getType();
  if (!Ty->isFloatTy() && !Ty->isDoubleTy())
    return;
  Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
  FCmpInst::Predicate P = Cmp->getPredicate();
  if (A == R.Running && B == X)
    P = FCmpInst::getSwappedPredicate(P);
  else if (A != X || B != R.Running)
    return;
  if (P != FCmpInst::FCMP_OGT && P != FCmpInst::FCMP_OLT)
    return;
  auto *AR = dyn_cast<SCEVAddRecExpr>(
      SE.getSCEV(getLoadStorePointerOperand(R.Element)));
  if (!AR || AR->getLoop() != R.L || !AR->isAffine())
    return;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().isZero() || !Step->getAPInt().isSignedIntN(64))
    return;
  R.Largest = P == FCmpInst::FCMP_OGT;
  R.FirstAddress = AR->getStart();
  R.Step = Step->getAPInt().getSExtValue();
}

/// The select reduction \p Running heads in \p L, if it is one.
static std::optional<SelectReduction>
selectReductionOf(PHINode &Running, const Loop &L, LoopInfo &LI,
                  DominatorTree &DT, AAResults &AAR, ScalarEvolution &SE) {
  BasicBlock *Latch = L.getLoopLatch(), *Preheader = L.getLoopPreheader();
  if (!Latch || !Preheader || L.getExitingBlock() != Latch)
    return std::nullopt;
  BasicBlock *Exit = L.getExitBlock();
  if (!Exit || Exit->getSinglePredecessor() != Latch)
    return std::nullopt;
  if (!Running.getType()->isFloatingPointTy())
    return std::nullopt;

  auto *Next = dyn_cast<SelectInst>(Running.getIncomingValueForBlock(Latch));
  if (!Next || LI.getLoopFor(Next->getParent()) != &L ||
      !Next->getCondition()->getType()->isIntegerTy(1))
    return std::nullopt;
  Value *Chosen = Next->getFalseValue() == &Running  ? Next->getTrueValue()
                  : Next->getTrueValue() == &Running ? Next->getFalseValue()
                                                     : nullptr;
  auto *Computed = dyn_cast_or_null<Instruction>(Chosen);
  if (!Computed || LI.getLoopFor(Computed->getParent()) != &L ||
      Computed->getType() != Running.getType())
    return std::nullopt;
  Instruction *Element = nullptr;
  if (auto *Load = dyn_cast<LoadInst>(Computed))
    Element = Load->isSimple() ? Load : nullptr;
  else
    Element = storeKeeping(Computed, L, DT, SE);
  if (!Element)
    return std::nullopt;
  // Null marks "no element chosen yet", so it must not be an address.
  Function &F = *Running.getFunction();
  if (NullPointerIsDefined(&F, getLoadStoreAddressSpace(Element)))
    return std::nullopt;

  // m feeds nothing in the loop but the select and comparisons, and the
  // select nothing but m and comparisons: inside the loop, only the final
  // value matters. After the loop it may be used anywhere (below the exit).
  if (!onlyComparedOrChosen(Running, *Next, L) ||
      any_of(Running.users(),
             [&](const User *U) { return !L.contains(cast<Instruction>(U)); }))
    return std::nullopt;
  if (!onlyComparedOrChosen(*Next, Running, L))
    return std::nullopt;
  Value *Start = Running.getIncomingValueForBlock(Preheader);
  SelectReduction R{&L, &Running, Start, Next, Element, Latch, Exit, {}};
  for (Use &U : Next->uses()) {
    auto *I = cast<Instruction>(U.getUser());
    if (L.contains(I))
      continue;
    BasicBlock *At = isa<PHINode>(I) ? cast<PHINode>(I)->getIncomingBlock(U)
                                     : I->getParent();
    if (!DT.dominates(Exit, At))
      return std::nullopt;
    R.Outside.push_back(&U);
  }
  if (!loopLeavesElement(L, *Element, AAR))
    return std::nullopt;
  findBySearch(R, Chosen, SE);
  return R;
}

/// In the loop, the address of the element m last took, beside the chain
/// (null until one is); returned as it is at the latch's end.
static Value *trackChosenAddress(const SelectReduction &R) {
  PHINode *Running = R.Running;
  SelectInst *Next = R.Next;
  Value *Address = getLoadStorePointerOperand(R.Element);
  auto *PtrTy = cast<PointerType>(Address->getType());
  Constant *None = ConstantPointerNull::get(PtrTy);
  IRBuilder<> B(Running);
  PHINode *Last = B.CreatePHI(PtrTy, 2, Running->getName() + ".from");
  // At the latch's end, where Next and the element's address (which, for an
  // element stored, may come after Next) are both available.
  B.SetInsertPoint(R.Latch->getTerminator());
  Value *LastNext = Next->getTrueValue() == Running
                        ? B.CreateSelect(Next->getCondition(), Last, Address)
                        : B.CreateSelect(Next->getCondition(), Address, Last);
  LastNext->setName(Next->getName() + ".from");
  for (BasicBlock *Pred : predecessors(Running->getParent()))
    Last->addIncoming(Pred == R.Latch ? LastNext : None, Pred);
  return LastNext;
}

/// Keeps the chosen element's address beside the chain, or searches for it
/// after the loop, and on the exit edge loads it again (or takes the start
/// value when nothing was chosen).
static void readBack(const SelectReduction &R, RuntimeFunctions &Runtime) {
  PHINode *Running = R.Running;
  SelectInst *Next = R.Next;
  Value *Tracked = R.First ? nullptr : trackChosenAddress(R);

  // On the exit edge: load it again if the loop chose one.
  BasicBlock *Edge = SplitEdge(R.Latch, R.Exit);
  Edge->setName(Running->getName() + ".readback");
  IRBuilder<> B(Edge->getTerminator());
  Value *Chosen;
  if (Tracked)
    Chosen =
        B.CreateICmpNE(Tracked, Constant::getNullValue(Tracked->getType()));
  else // The chain only moves away from its start, and only when it chooses.
    Chosen = R.Largest ? B.CreateFCmpOGT(Next, R.Start)
                       : B.CreateFCmpOLT(Next, R.Start);
  Instruction *Then = SplitBlockAndInsertIfThen(Chosen, Edge->getTerminator(),
                                                /*Unreachable=*/false);
  Value *Where = Tracked;
  if (!Where) {
    B.SetInsertPoint(Then);
    Value *Index = B.CreateCall(Runtime.firstEqual(Running->getType()),
                                {R.First, B.getInt64(R.Step), Next},
                                Next->getName() + ".index");
    Where = B.CreateGEP(B.getInt8Ty(), R.First,
                        B.CreateMul(Index, B.getInt64(R.Step)),
                        Next->getName() + ".at");
  }
  LoadInst *Reload;
  if (auto *Load = dyn_cast<LoadInst>(R.Element)) {
    Reload = cast<LoadInst>(Load->clone());
    Reload->setOperand(Reload->getPointerOperandIndex(), Where);
  } else {
    auto *Store = cast<StoreInst>(R.Element);
    Reload = new LoadInst(Running->getType(), Where, "",
                          /*isVolatile=*/false, Store->getAlign());
    Reload->setAAMetadata(Store->getAAMetadata());
  }
  // Scopes of the loop's accesses may not hold outside it.
  Reload->setMetadata(LLVMContext::MD_alias_scope, nullptr);
  Reload->setMetadata(LLVMContext::MD_noalias, nullptr);
  Reload->insertBefore(Then->getIterator());
  Reload->setName(Next->getName() + ".readback");
  BasicBlock *Join = Then->getParent()->getSingleSuccessor();
  B.SetInsertPoint(Join, Join->getFirstInsertionPt());
  PHINode *Final =
      B.CreatePHI(Running->getType(), 2, Next->getName() + ".final");
  Final->addIncoming(Reload, Then->getParent());
  Final->addIncoming(R.Start, Edge);
  Final->setDebugLoc(Next->getDebugLoc());

  // The loop keeps the chain; everything past the exit reads Final.
  for (Use *U : R.Outside)
    U->set(Final);
}

/// m' = fmax(m, x) (or fmin, either operand order, libm's, libdevice's or
/// the intrinsic) in a loop whose header holds m, x computed in the loop:
/// the same chain as a compare and a select, m' = (x > m || (m is NaN && x
/// is not)) ? x : m, which the matcher above reads back where x is a load.
/// The select computes one of the values fmax may return (when x == m it
/// keeps m, as fmax may; NaNs as fmax), and its reverse sweep, where the
/// chain is not read back, needs a byte per iteration where fmax's needs
/// both values.
static bool extremeCallsAsSelects(Function &F, LoopInfo &LI) {
  SmallVector<std::pair<PHINode *, CallBase *>, 4> Chains;
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch)
      continue;
    for (PHINode &Phi : L->getHeader()->phis()) {
      if (!Phi.getType()->isFloatingPointTy())
        continue;
      auto *Call = dyn_cast<CallBase>(Phi.getIncomingValueForBlock(Latch));
      if (!Call || Call->arg_size() != 2 ||
          LI.getLoopFor(Call->getParent()) != L)
        continue;
      const MathRule *Rule = classifyCallee(*Call).Rule;
      if (!Rule ||
          (StringRef(Rule->Name) != "fmax" && StringRef(Rule->Name) != "fmin"))
        continue;
      Value *Other = Call->getArgOperand(0) == &Phi   ? Call->getArgOperand(1)
                     : Call->getArgOperand(1) == &Phi ? Call->getArgOperand(0)
                                                      : nullptr;
      auto *Element = dyn_cast_or_null<Instruction>(Other);
      if (Element && L->contains(Element))
        Chains.push_back({&Phi, Call});
    }
  }
  for (auto [Running, Call] : Chains) {
    bool Max = StringRef(classifyCallee(*Call).Rule->Name) == "fmax";
    Value *X = Call->getArgOperand(0) == Running ? Call->getArgOperand(1)
                                                 : Call->getArgOperand(0);
    IRBuilder<> B(Call);
    Value *Better =
        Max ? B.CreateFCmpOGT(X, Running) : B.CreateFCmpOLT(X, Running);
    Value *Unset =
        B.CreateAnd(B.CreateFCmpUNO(Running, Running), B.CreateFCmpORD(X, X));
    Value *Choose = B.CreateOr(Better, Unset, Call->getName() + ".chooses");
    Value *Next = B.CreateSelect(Choose, X, Running);
    Next->takeName(Call);
    Call->replaceAllUsesWith(Next);
    Call->eraseFromParent();
  }
  return !Chains.empty();
}

unsigned readBackSelectReductions(Function &F, FunctionAnalysisManager &FAM) {
  if (!ReadBackExtremes)
    return 0;
  LoopInfo *LI = &FAM.getResult<LoopAnalysis>(F);
  if (LI->empty()) // Most functions: no alias analysis asked for.
    return 0;
  if (extremeCallsAsSelects(F, *LI)) {
    FAM.invalidate(F, PreservedAnalyses::none());
    LI = &FAM.getResult<LoopAnalysis>(F);
  }
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  AAResults &AAR = FAM.getResult<AAManager>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<SelectReduction, 4> Found;
  for (Loop *L : LI->getLoopsInPreorder())
    for (PHINode &Phi : L->getHeader()->phis())
      if (auto R = selectReductionOf(Phi, *L, *LI, DT, AAR, SE))
        Found.push_back(*R);
  if (Found.empty())
    return 0;
  // The first elements' addresses, before the loops: no edge is split yet.
  SCEVExpander Expander(SE, "ad.extreme");
  for (SelectReduction &R : Found)
    if (R.FirstAddress) {
      Instruction *At = R.L->getLoopPreheader()->getTerminator();
      if (Expander.isSafeToExpandAt(R.FirstAddress, At))
        R.First = Expander.expandCodeFor(
            R.FirstAddress, getLoadStorePointerOperand(R.Element)->getType(),
            At);
    }
  Expander.clear();
  RuntimeFunctions Runtime(*F.getParent());
  // Two chains of one loop share its exit edge: each splits the edge its
  // predecessor left, whose latch side is unchanged.
  for (SelectReduction &R : Found) {
    for (BasicBlock *Succ : successors(R.Latch))
      if (!R.L->contains(Succ))
        R.Exit = Succ;
    readBack(R, Runtime);
  }
  FAM.invalidate(F, PreservedAnalyses::none());
  return Found.size();
}

} // namespace ad
