//===- PrimalInReverse.cpp - Primal values in the reverse sweep -----------===//
//
// Where a reverse block gets a primal value (see PrimalInReverse.h): used
// directly, recomputed from values at hand (cheap operations, loads of memory
// nothing overwrites, phis as selects), or read back from the block's record
// on the tape. The slots that loops allow are in PrimalInLoops.cpp.
//
//===----------------------------------------------------------------------===//
#include "modes/PrimalInReverse.h"
#include "analysis/IterationOwnership.h"
#include "analysis/MemoryEffects.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "core/PrimalMarks.h"
#include "modes/ConstantShadows.h"
#include "modes/ReverseControlFlow.h"
#include "modes/TapeRecords.h"
#include "rules/KnownFunctions.h"
#include "rules/MathRules.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

PrimalInReverse::PrimalInReverse(ReverseState &S, TapeRecords &Records,
                                 ReverseControlFlow &Flow,
                                 AdjointSlots &Adjoints)
    : S(S), Records(Records), Flow(Flow), Adjoints(Adjoints) {
  for (auto &[Header, CL] : S.Counted) {
    for (const Recurrence &R : CL.IVs)
      Inductions[R.Phi] = &R;
    for (const SteppedRecurrence &R : CL.Stepped)
      Stepped[R.Phi] = {&R, S.LI.getLoopFor(Header), std::nullopt, nullptr};
  }
}

bool PrimalInReverse::isDirectlyAvailable(const Value *Orig) const {
  if (isa<Argument>(Orig))
    return true;
  auto *I = dyn_cast<Instruction>(Orig);
  if (!I)
    return false;
  const BasicBlock *BB = I->getParent();
  return !S.LI.getLoopFor(BB) && S.DT.dominates(BB, S.ReturnBlock);
}

bool PrimalInReverse::availableWithoutTape(const Value *V) {
  // A loop-invariant value costs one slot per entry into the loop, not a
  // field per iteration.
  return isa<Constant>(V) || isDirectlyAvailable(V) || inductionInScope(V) ||
         steppedInScope(V) || invariantLoop(V);
}

Value *PrimalInReverse::fromForward(Value *Fwd, bool Direct) {
  if (Direct && S.Combined)
    return Fwd;
  return Records.read(Direct ? S.ReturnBlock : S.CurBlock, Fwd);
}

Value *PrimalInReverse::primalInReverse(Value *Orig) {
  if (isa<Constant>(Orig) || isa<MetadataAsValue>(Orig))
    return Orig;
  if (const Recurrence *R = inductionInScope(Orig))
    return inductionInReverse(*R);
  if (const SteppedRecurrence *R = steppedInScope(Orig))
    return steppedInReverse(*R);
  // Split: even a value computed once costs a record field; recomputing
  // it from others may share theirs.
  bool Direct = isDirectlyAvailable(Orig);
  if (!Direct)
    if (const Loop *L = invariantLoop(Orig))
      return invariantInReverse(Orig, /*Shadow=*/false, L);
  if (!Direct || !S.Combined)
    if (Value *V = recomputeInReverse(Orig, /*Depth=*/0))
      return V;
  return fromForward(S.VMap[Orig], Direct);
}

Value *PrimalInReverse::primalAtHand(Value *Orig) {
  if (availableWithoutTape(Orig))
    return primalInReverse(Orig);
  if (Value *Fwd = S.VMap.lookup(Orig))
    return Records.loaded(S.CurBlock, Fwd);
  return nullptr;
}

/// Floating-point arithmetic on two variables: recomputed only from values
/// at hand; with one of them from the tape, taping the result is as cheap
/// and saves the arithmetic.
static bool tapesNoOperand(const Instruction &I) {
  return isa<BinaryOperator>(I) && I.getType()->isFPOrFPVectorTy() &&
         !isa<Constant>(I.getOperand(0)) && !isa<Constant>(I.getOperand(1));
}

static bool isCheapToRecompute(const Instruction &I) {
  if (isa<UnaryOperator>(I) || isa<CastInst>(I) || isa<GetElementPtrInst>(I))
    return !isa<AddrSpaceCastInst>(I);
  if (isa<CmpInst>(I) || isa<ShuffleVectorInst>(I) ||
      isa<InsertElementInst>(I) || isa<ExtractElementInst>(I))
    return true;
  // Floating-point arithmetic: its row says (fadd, fmul, fdiv are cheaper
  // than a tape field's store and load when the operands are at hand, and
  // recomputeInReverse tapes no operand of them; frem is not).
  if (const MathRule *Rule = lookupInstructionRule(I.getOpcode()))
    return Rule->Recompute == RecomputeCost::Cheap;
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Shl:
    case Instruction::LShr:
    case Instruction::AShr:
    case Instruction::Or:
    case Instruction::And:
    case Instruction::Xor:
      // Integer index arithmetic (i * C + j): one instruction, and its
      // operands are usually induction variables or arguments at hand.
      return true;
    default:
      return false;
    }
  }
  return false;
}

/// A call of a math function with a rule (expf, tanhf, llvm.fmuladd, ...):
/// recomputed only from values at hand, and, unless it is an intrinsic that
/// lowers to a few instructions, only inside a loop, where taping its result
/// costs a field per iteration. The handwritten backward of an elementwise
/// activation recomputes it the same way (gelu: tanhf). In the gradient of
/// one iteration of a fused loop nest (\p FusedIteration), whose tape stays
/// in cache, a call of the math library is taped instead.
static bool isRecomputableMathCall(const Instruction &I, const LoopInfo &LI,
                                   bool FusedIteration) {
  auto *Call = dyn_cast<CallInst>(&I);
  if (!Call || Call->isInlineAsm() || !classifyCallee(*Call).Rule)
    return false;
  if (FusedIteration && isLibraryMathCall(*Call))
    return false;
  return isa<IntrinsicInst>(Call) || LI.getLoopFor(Call->getParent());
}

const SmallVectorImpl<Instruction *> &PrimalInReverse::writers() {
  if (!Writers) {
    Writers.emplace();
    // A gradient's deferred frees run in its reverse sweep, after every
    // read back (primal/DeferredFrees.h).
    for (Instruction &I : instructions(*S.Primal))
      if (writesProgramMemory(I) && !(S.Combined && isDeferredFree(I)))
        Writers->push_back(&I);
  }
  return *Writers;
}

/// lifetime.end ends what an alloca holds: a stack slot may be shared with
/// another alloca after it, so its contents cannot be relied on later.
static bool hasLifetimeMarkers(const AllocaInst &AI) {
  return any_of(AI.users(), [](const User *U) {
    return isa<IntrinsicInst>(U) &&
           cast<IntrinsicInst>(U)->isLifetimeStartOrEnd();
  });
}

/// \p Access is to an alloca with lifetime markers: even where nothing
/// writes it, its stack slot may hold another alloca by the time the reverse
/// sweep reads it (the backend's stack colouring shares slots from -O1), so
/// nothing is read back from it, run-time checks or not.
bool inDeadLocal(const Instruction &Access) {
  auto *AI = dyn_cast<AllocaInst>(
      getUnderlyingObject(getLoadStorePointerOperand(&Access)));
  return AI && hasLifetimeMarkers(*AI);
}

bool PrimalInReverse::stillInMemory(const LoadInst &L) {
  if (L.isVolatile() || !L.isSimple() || inDeadLocal(L))
    return false;
  // In the versioned copy that run-time checks chose (ReloadVersioning.h).
  if (isUnchangedAfterAccess(L))
    return true;
  // A write the load can reach, later in the function or in a later
  // iteration of a loop around both, may have changed the location by the
  // time the reverse sweep runs. One it cannot reach ran before every
  // execution of the load (what was stored earlier and read back since,
  // such as attention's scores, stays). On a GPU another thread's write of
  // an earlier program point that ran after this thread's load would be a
  // race in the program itself: a barrier orders them.
  MemoryLocation Loc = MemoryLocation::get(&L);
  AAResults &AAR = S.Ctx.FAM.getResult<AAManager>(*S.Primal);
  DominatorTree &DT = S.Ctx.FAM.getResult<DominatorTreeAnalysis>(*S.Primal);
  return none_of(writers(), [&](Instruction *W) {
    return mayWrite(AAR, W, Loc) &&
           isPotentiallyReachable(&L, W, /*ExclusionSet=*/nullptr, &DT, &S.LI);
  });
}

/// Bit \p ArgNo of a KeptArgs or UnwrittenArgs mask.
static bool hasArgBit(uint64_t Mask, unsigned ArgNo) {
  return ArgNo < 64 && ((Mask >> ArgNo) & 1);
}

bool PrimalInReverse::unwrittenArgument(const LoadInst &Ld) const {
  auto *A = dyn_cast<Argument>(getUnderlyingObject(Ld.getPointerOperand()));
  return A && hasArgBit(S.Sig.UnwrittenArgs, A->getArgNo());
}

bool PrimalInReverse::mayReload(const LoadInst &L) {
  if (S.Combined)
    return stillInMemory(L);
  // A split derivative's caller runs code between the two halves: only
  // memory it vouches for stays as it was. Its check covered the call too,
  // with the call's actual arguments (this function writing through another
  // argument that the caller knows points elsewhere is no write there).
  auto *A = dyn_cast<Argument>(getUnderlyingObject(L.getPointerOperand()));
  if (A && hasArgBit(S.Sig.KeptArgs, A->getArgNo()) && L.isSimple())
    return true;
  // Or what its own iteration wrote there, kept as written.
  return L.isSimple() && keptWrite(const_cast<LoadInst &>(L));
}

bool PrimalInReverse::keptWrite(Instruction &X) {
  if (S.Combined || !S.Sig.KeptWriteArgs)
    return false;
  auto [It, New] = KeptWrites.try_emplace(&X, false);
  if (!New)
    return It->second;
  Value *Ptr = getLoadStorePointerOperand(&X);
  auto *A = Ptr ? dyn_cast<Argument>(getUnderlyingObject(Ptr)) : nullptr;
  if (!A || !hasArgBit(S.Sig.KeptWriteArgs, A->getArgNo()))
    return false;
  return It->second = unchangedLaterInIteration(
             X, S.Ctx.FAM.getResult<ScalarEvolutionAnalysis>(*S.Primal), S.LI,
             S.Ctx.FAM.getResult<AAManager>(*S.Primal));
}

std::pair<uint64_t, uint64_t> PrimalInReverse::keptArguments(CallBase &I) {
  uint64_t Kept = 0, Unwritten = 0;
  AAResults &AAR = S.Ctx.FAM.getResult<AAManager>(*S.Primal);
  for (const Use &U : I.args()) {
    unsigned K = U.getOperandNo();
    if (K >= 64 || !U->getType()->isPointerTy())
      continue;
    // A parallel region's reads that run-time checks showed nothing writes
    // over, the region itself included, until the adjoint (the checked copy
    // of a gradient, ReloadVersioning.h).
    // (Not a stack slot with lifetime markers: see inDeadLocal.)
    auto *Slot = dyn_cast<AllocaInst>(getUnderlyingObject(U));
    if (hasArgBit(unchangedArguments(I), K) &&
        !(Slot && hasLifetimeMarkers(*Slot))) {
      Kept |= uint64_t(1) << K;
      Unwritten |= uint64_t(1) << K;
      continue;
    }
    MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(U);
    // A parallel region's body reads through its noalias readonly pointers
    // only (primal/ParallelRegions.cpp); alias analysis, which sees the
    // body's libomp calls, cannot tell.
    const Function *Callee = I.getCalledFunction();
    bool RegionReads = isParallelRegionCall(I) && Callee &&
                       K < Callee->arg_size() &&
                       Callee->getArg(K)->hasNoAliasAttr() &&
                       Callee->getArg(K)->onlyReadsMemory();
    if (!RegionReads && mayWrite(AAR, &I, Loc))
      continue;
    Unwritten |= uint64_t(1) << K;
    // Memory that lives until this derivative's reverse sweep runs the
    // call's adjoint, with nothing outside it writing there in between: in
    // a gradient (one call, both sweeps) this function's arguments, globals
    // and allocas (whose lifetime lasts); in a split derivative only the
    // arguments its own caller keeps.
    const Value *Obj = getUnderlyingObject(U);
    bool Lives = false;
    if (auto *A = dyn_cast<Argument>(Obj))
      Lives = S.Combined || hasArgBit(S.Sig.KeptArgs, A->getArgNo());
    else if (auto *AI = dyn_cast<AllocaInst>(Obj))
      Lives = S.Combined && !hasLifetimeMarkers(*AI);
    else if (isa<GlobalVariable>(Obj))
      Lives = S.Combined;
    // ... and that no instruction of this function writes, the call itself
    // included (in a loop its next execution comes before the adjoint).
    if (Lives && none_of(writers(), [&](Instruction *W) {
          return !(RegionReads && W == &I) && mayWrite(AAR, W, Loc);
        }))
      Kept |= uint64_t(1) << K;
  }
  return {Kept, Unwritten};
}

/// Every time \p From runs, \p To runs after it before the iteration of
/// their innermost loop ends (or the function returns, outside loops): no
/// path from \p From reaches the loop's latch or leaves it without \p To.
bool alwaysFollows(const BasicBlock *From, const BasicBlock *To,
                   const LoopInfo &LI) {
  if (From == To)
    return true;
  const Loop *L = LI.getLoopFor(From);
  if (L != LI.getLoopFor(To))
    return false;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == To || !Seen.insert(BB).second)
      continue;
    if (isa<ReturnInst>(BB->getTerminator()) || (L && L->isLoopLatch(BB)))
      return false;
    for (const BasicBlock *Succ : successors(BB)) {
      if (L && !L->contains(Succ))
        return false;
      Work.push_back(Succ);
    }
  }
  return true;
}

StoreInst *PrimalInReverse::keptStore(const Instruction &I) {
  // The store must run whenever the value is computed, in the same
  // iteration: the reverse sweep reads it back from that iteration's
  // address. A gradient's checked copy marks what nothing overwrites; a
  // region body's split derivative asks keptWrite.
  for (const User *U : I.users())
    if (auto *St = dyn_cast<StoreInst>(U))
      if (St->getValueOperand() == &I && St->isSimple() &&
          (S.Combined ? isUnchangedAfterAccess(*St) && !inDeadLocal(*St)
                      : keptWrite(*const_cast<StoreInst *>(St))) &&
          alwaysFollows(I.getParent(), St->getParent(), S.LI))
        return const_cast<StoreInst *>(St);
  return nullptr;
}

Value *PrimalInReverse::recomputeInReverse(Value *Orig, unsigned Depth) {
  // A call's result as a stored quotient times its divisor, where the
  // program's flags allow: cheaper than the call again or a tape field.
  if (auto *Call = dyn_cast<CallInst>(Orig))
    if (Value *V = invertQuotient(*Call, Depth))
      return V;
  if (Value *V = recomputeFromOperands(Orig, Depth))
    return V;
  // A value the forward sweep stored where it stays: read it back, as
  // crossentropy's probs[i] = p[i] / sum is, instead of taping p[i].
  auto *I = dyn_cast<Instruction>(Orig);
  StoreInst *St = I && Depth <= MaxRecomputeDepth ? keptStore(*I) : nullptr;
  if (!St || !recomputableWithoutTape(St->getPointerOperand(), Depth + 1))
    return nullptr;
  Value *Fwd = S.VMap[Orig];
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  Value *Ptr = operandInReverse(St->getPointerOperand(), Depth + 1);
  auto *Ld = new LoadInst(I->getType(), Ptr, I->getName() + ".stored",
                          /*isVolatile=*/false, St->getAlign());
  ++Recomputed;
  return placeWithRecord(Ld, Fwd);
}

Value *PrimalInReverse::recomputeFromOperands(Value *Orig, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(Orig);
  if (!I || Depth > MaxRecomputeDepth)
    return nullptr;
  // A load can be repeated in the reverse sweep when nothing can have
  // changed that memory in between: no write of the function may alias it,
  // and nothing outside runs between the sweeps (mayReload).
  bool Reload = isa<LoadInst>(I) && mayReload(*cast<LoadInst>(I));
  if (auto *Phi = dyn_cast<PHINode>(I))
    return recomputePhiInReverse(Phi, Depth);
  bool MathCall = isRecomputableMathCall(*I, S.LI, S.Sig.FusedIteration);
  if (!Reload && !MathCall && !isCheapToRecompute(*I))
    return nullptr;
  // Never more to tape than taping the value itself: at most one operand
  // may have to come from the tape (a value used by several recomputed
  // ones, like x in -x and 1 - x, is then taped once for all of them), and
  // not a wider one (a float compared with the running maximum: tape the
  // flag, not the maximum).
  const DataLayout &DL = S.Ctx.M.getDataLayout();
  unsigned FromTape = 0;
  for (const Use &U : I->operands())
    if (!recomputableWithoutTape(U, Depth + 1)) {
      ++FromTape;
      if (DL.getTypeStoreSize(U->getType()) > DL.getTypeStoreSize(I->getType()))
        return nullptr;
    }
  if (FromTape > 1 || (FromTape && (MathCall || tapesNoOperand(*I))))
    return nullptr;
  Value *Fwd = S.VMap[Orig];
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  SmallVector<Value *, 4> Ops;
  for (const Use &U : I->operands())
    Ops.push_back(operandInReverse(U.get(), Depth + 1));
  Instruction *C = I->clone();
  for (auto [K, V] : enumerate(Ops))
    C->setOperand(K, V);
  C->setName(I->getName() + ".re");
  ++Recomputed;
  return placeWithRecord(C, Fwd);
}

Value *PrimalInReverse::operandInReverse(Value *Op, unsigned Depth) {
  if (availableWithoutTape(Op))
    return primalInReverse(Op);
  if (Value *V = recomputeInReverse(Op, Depth))
    return V;
  if (const Loop *L = invariantLoop(Op))
    return invariantInReverse(Op, /*Shadow=*/false, L);
  return fromForward(S.VMap[Op], /*Direct=*/false);
}

bool PrimalInReverse::recomputableWithoutTape(Value *V, unsigned Depth) {
  if (availableWithoutTape(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxRecomputeDepth)
    return false;
  // Answers hold for the block being reversed (induction variables in
  // scope differ between blocks); the depth is ignored, which may only make
  // a later recomputation fall back to the tape.
  if (MemoBlock != S.CurBlock) {
    Recomputable.clear();
    MemoBlock = S.CurBlock;
  }
  if (auto It = Recomputable.find(V); It != Recomputable.end())
    return It->second;
  Recomputable[V] = false; // Cycles through phis are not recomputable.
  bool Result = recomputableUncached(I, Depth);
  Recomputable[V] = Result;
  return Result;
}

bool PrimalInReverse::recomputableUncached(Instruction *I, unsigned Depth) {
  if (auto *Phi = dyn_cast<PHINode>(I))
    return phiRecomputable(Phi, Depth);
  if (isa<CallInst>(I))
    if (auto Quotient = storedQuotient(*I))
      if (recomputableWithoutTape(Quotient->First->getPointerOperand(),
                                  Depth + 1) &&
          (Quotient->FactorAtExit ||
           recomputableWithoutTape(Quotient->Factor, Depth + 1)))
        return true;
  if (StoreInst *St = keptStore(*I))
    if (recomputableWithoutTape(St->getPointerOperand(), Depth + 1))
      return true;
  bool Reload = isa<LoadInst>(I) && mayReload(*cast<LoadInst>(I));
  if (!Reload && !isRecomputableMathCall(*I, S.LI, S.Sig.FusedIteration) &&
      !isCheapToRecompute(*I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return recomputableWithoutTape(Op, Depth + 1);
  });
}

bool PrimalInReverse::phiRecomputable(PHINode *Phi, unsigned Depth) {
  // As a select, both incoming values are computed, also the one whose
  // side of the branch did not run: they must be safe to compute anywhere
  // (no loads) and need nothing from the tape (nothing was recorded there).
  std::optional<ReverseControlFlow::DecidingBranch> D =
      Flow.decidingBranch(Phi->getParent());
  return D && recomputableWithoutTape(D->Cond, Depth + 1) &&
         all_of(Phi->incoming_values(), [&](Value *In) {
           return speculatableWithoutTape(In, Depth + 1);
         });
}

bool PrimalInReverse::speculatableWithoutTape(Value *V, unsigned Depth) {
  if (availableWithoutTape(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxRecomputeDepth || isa<PHINode>(I) ||
      !isCheapToRecompute(*I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return speculatableWithoutTape(Op, Depth + 1);
  });
}

Value *PrimalInReverse::recomputePhiInReverse(PHINode *Phi, unsigned Depth) {
  // A phi joining the two sides of a branch is a select on its condition.
  if (!phiRecomputable(Phi, Depth))
    return nullptr;
  std::optional<ReverseControlFlow::DecidingBranch> D =
      Flow.decidingBranch(Phi->getParent());
  SmallVector<BasicBlock *, 2> &P = S.Preds[Phi->getParent()];
  Value *Ops[3] = {D->Cond, Phi->getIncomingValueForBlock(P[D->IfTrue]),
                   Phi->getIncomingValueForBlock(P[D->IfFalse])};
  Value *Fwd = S.VMap[Phi];
  if (Value *V = Records.loaded(S.CurBlock, Fwd))
    return V;
  Value *Re[3];
  for (unsigned K = 0; K < 3; ++K)
    Re[K] = operandInReverse(Ops[K], Depth + 1);
  auto *Sel = SelectInst::Create(Re[0], Re[1], Re[2], Phi->getName() + ".re");
  ++Recomputed;
  return placeWithRecord(Sel, Fwd);
}

Instruction *PrimalInReverse::placeWithRecord(Instruction *C, Value *Fwd) {
  return Records.place(S.CurBlock, C, Fwd);
}

Value *PrimalInReverse::shadowInReverse(Value *Orig, Instruction *User) {
  if (auto *C = dyn_cast<Constant>(Orig))
    if (Constant *Sh = shadowOfConstant(S.Ctx.M, C, /*ForReverse=*/true))
      return Sh;
  Value *Sh = S.Shadows.lookup(Orig);
  if (!Sh)
    return S.Cloning.shadowOf(Orig, User); // Reports the error.
  if (isa<Constant>(Sh))
    return Sh;
  bool Direct = isDirectlyAvailable(Orig);
  if (!Direct)
    if (const Loop *L = invariantLoop(Orig))
      return invariantInReverse(Orig, /*Shadow=*/true, L);
  if (!Direct || !S.Combined)
    if (Value *V = recomputeShadowInReverse(Orig, Sh, User))
      return V;
  return fromForward(Sh, Direct);
}

bool PrimalInReverse::shadowRecomputableWithoutTape(Value *Orig,
                                                    unsigned Depth) {
  if (isDirectlyAvailable(Orig) || isa<Constant>(Orig) || invariantLoop(Orig))
    return true;
  auto *GEP = dyn_cast<GetElementPtrInst>(Orig);
  if (!GEP || Depth > MaxRecomputeDepth)
    return false;
  return shadowRecomputableWithoutTape(GEP->getPointerOperand(), Depth + 1) &&
         all_of(GEP->indices(), [&](Value *Idx) {
           return recomputableWithoutTape(Idx, Depth + 1);
         });
}

Value *PrimalInReverse::recomputeShadowInReverse(Value *Orig, Value *Sh,
                                                 Instruction *User) {
  // The shadow of p + i is shadow(p) + i. With p's shadow at hand (an
  // argument's in a gradient), only the index is taped, and it is shared by
  // the primal and shadow addresses that use it; with constant indices (an
  // unrolled loop's x[0], x[1], ...), only p's shadow is taped, once for all
  // of them, instead of one pointer per address.
  auto *GEP = dyn_cast<GetElementPtrInst>(Orig);
  if (!GEP)
    return nullptr;
  Value *Ptr = GEP->getPointerOperand();
  unsigned FromTape = !shadowRecomputableWithoutTape(Ptr, 1);
  for (const Use &Idx : GEP->indices())
    FromTape += !recomputableWithoutTape(Idx, 1);
  if (FromTape > 1)
    return nullptr;
  if (Value *V = Records.loaded(S.CurBlock, Sh))
    return V;
  Value *Base = shadowInReverse(GEP->getPointerOperand(), User);
  if (!Base)
    return nullptr;
  SmallVector<Value *, 4> Indices;
  for (const Use &Idx : GEP->indices())
    Indices.push_back(primalInReverse(Idx));
  auto *C = cast<GetElementPtrInst>(GEP->clone());
  C->setOperand(0, Base);
  for (auto [K, V] : enumerate(Indices))
    C->setOperand(K + 1, V);
  C->setName(GEP->getName() + ".shadow.re");
  ++Recomputed;
  return placeWithRecord(C, Sh);
}

} // namespace ad
