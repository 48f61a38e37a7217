//===- RegionFootprint.cpp - The memory a parallel region reads and writes ===//
#include "analysis/RegionFootprint.h"
#include "analysis/MemoryEffects.h"
#include "core/ParallelRegionCalls.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {

/// Grows \p Into to cover \p R.
static void widen(std::optional<OffsetRange> &Into, const OffsetRange &R,
                  ScalarEvolution &SE) {
  if (!Into)
    Into = R;
  else
    Into = OffsetRange{SE.getSMinExpr(Into->Lo, R.Lo),
                       SE.getSMaxExpr(Into->Hi, R.Hi)};
}

bool staysInRegion(const Argument &Arg) {
  SmallVector<const Value *, 8> Work{&Arg};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst, PHINode, SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      if (isa<ICmpInst>(U) ||
          (isa<LoadInst>(U) && cast<LoadInst>(U)->getPointerOperand() == V))
        continue;
      if (auto *S = dyn_cast<StoreInst>(U); S && S->getPointerOperand() == V)
        continue;
      if (auto *R = dyn_cast<AtomicRMWInst>(U);
          R && R->getPointerOperand() == V)
        continue;
      if (auto *C = dyn_cast<AtomicCmpXchgInst>(U);
          C && C->getPointerOperand() == V)
        continue;
      if (auto *M = dyn_cast<MemIntrinsic>(U);
          M && M->getLength() != V && !M->isVolatile())
        continue;
      return false;
    }
  }
  return true;
}

/// \p Call is libomp's (or this project's runtime's for regions): what it
/// writes is the runtime's state and the stack slots it is handed.
static bool writesOnlyRuntimeState(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return false;
  StringRef Name = Callee->getName();
  if (!Name.starts_with("__kmpc_") && !Name.starts_with("omp_") &&
      !Name.starts_with("__ad_omp_"))
    return false;
  return all_of(Call.args(), [](const Use &U) {
    const Value *Obj = getUnderlyingObject(U);
    return !U->getType()->isPointerTy() || isa<AllocaInst>(Obj) ||
           isa<GlobalVariable>(Obj) || isa<ConstantPointerNull>(Obj);
  });
}

RegionFootprint regionFootprint(Function &Body, ScalarEvolution &SE,
                                LoopInfo &LI) {
  RegionFootprint F;
  const DataLayout &DL = Body.getDataLayout();
  auto bytes = [&](Type *T) -> const SCEV * {
    TypeSize Size = DL.getTypeStoreSize(T);
    return Size.isScalable()
               ? nullptr
               : SE.getConstant(DL.getIndexType(Body.getContext(), 0),
                                Size.getFixedValue());
  };
  DenseMap<const SCEV *, unsigned> ParameterOf; // Its pointer's expression.
  for (Argument &A : Body.args())
    if (A.getArgNo() >= RegionThreadIdParams && A.getArgNo() < 64 &&
        A.getType()->isPointerTy()) {
      ParameterOf[SE.getSCEV(&A)] = F.Parameters.size();
      F.Parameters.push_back({A.getArgNo(), {}, {}});
      if (!staysInRegion(A))
        F.Parameters.back().ReadsUnbounded =
            F.Parameters.back().WritesUnbounded = true;
    }
  for (Instruction &I : instructions(Body)) {
    // Where, and how many bytes (an expression, for memset and memcpy).
    SmallVector<std::tuple<Value *, const SCEV *, bool>, 2> Touches;
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      Touches.push_back({L->getPointerOperand(), bytes(L->getType()), false});
    } else if (auto *S = dyn_cast<StoreInst>(&I)) {
      Touches.push_back({S->getPointerOperand(),
                         bytes(S->getValueOperand()->getType()), true});
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      const SCEV *Size = bytes(RMW->getValOperand()->getType());
      Touches.push_back({RMW->getPointerOperand(), Size, false});
      Touches.push_back({RMW->getPointerOperand(), Size, true});
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      const SCEV *Size = bytes(CX->getNewValOperand()->getType());
      Touches.push_back({CX->getPointerOperand(), Size, false});
      Touches.push_back({CX->getPointerOperand(), Size, true});
    } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      const SCEV *Size = SE.getSCEV(MI->getLength());
      Touches.push_back({MI->getRawDest(), Size, true});
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        Touches.push_back({MT->getRawSource(), Size, false});
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      // libm writes errno at most; libomp its own state and the thread's
      // stack slots it is handed.
      F.WritesElsewhere |=
          writesProgramMemory(I) && !writesOnlyRuntimeState(*Call);
      continue;
    }
    for (auto [Ptr, Size, Writes] : Touches) {
      // The thread's own stack: nobody else sees it.
      if (isa<AllocaInst>(getUnderlyingObject(Ptr)))
        continue;
      const SCEV *Address = SE.getSCEV(Ptr);
      auto It = ParameterOf.find(SE.getPointerBase(Address));
      if (It == ParameterOf.end()) {
        F.WritesElsewhere |= Writes;
        continue;
      }
      ParameterFootprint &P = F.Parameters[It->second];
      std::optional<OffsetRange> Range, Length;
      const SCEV *Offset = SE.removePointerBase(Address);
      const Loop *In = LI.getLoopFor(I.getParent());
      // (A memset that runs only if S < L, of zext(L - S - 1) + 1 elements,
      // is no longer than that where S >= L: tripCountsWhereRuns.)
      if (Size && !isa<SCEVCouldNotCompute>(Offset))
        Range = regionOffsetRange(
            tripCountsWhereRuns(Offset, *I.getParent(), SE), SE, In),
        Length = regionOffsetRange(
            tripCountsWhereRuns(Size, *I.getParent(), SE), SE, In);
      if (Range && Length && Length->Hi->getType() == Range->Hi->getType())
        Range->Hi = SE.getAddExpr(Range->Hi, Length->Hi);
      else
        Range.reset();
      std::optional<OffsetRange> &Into = Writes ? P.Writes : P.Reads;
      if (Range)
        widen(Into, *Range, SE);
      else
        (Writes ? P.WritesUnbounded : P.ReadsUnbounded) = true;
    }
  }
  return F;
}

} // namespace ad
