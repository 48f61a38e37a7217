//===- MaskedMemory.cpp - llvm.masked.{load,store,gather,scatter}
//-----------===//
#include "rules/MaskedMemory.h"
#include "core/IRHelpers.h"
#include "rules/CallRows.h"
#include "rules/ShadowErrors.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {

std::optional<MaskedAccess> asMaskedAccess(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  MaskedAccess A;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::masked_load: // (ptr, mask, passthru)
    A.PtrArg = 0, A.MaskArg = 1, A.DataArg = 2;
    break;
  case Intrinsic::masked_gather:
    A.IsGatherScatter = true;
    A.PtrArg = 0, A.MaskArg = 1, A.DataArg = 2;
    break;
  case Intrinsic::masked_store: // (value, ptr, mask)
    A.IsStore = true;
    A.DataArg = 0, A.PtrArg = 1, A.MaskArg = 2;
    break;
  case Intrinsic::masked_scatter:
    A.IsStore = A.IsGatherScatter = true;
    A.DataArg = 0, A.PtrArg = 1, A.MaskArg = 2;
    break;
  default:
    return std::nullopt;
  }
  A.Ptr = Call.getArgOperand(A.PtrArg);
  A.Mask = Call.getArgOperand(A.MaskArg);
  A.Data = Call.getArgOperand(A.DataArg);
  A.Alignment = Call.getParamAlign(A.PtrArg).valueOrOne();
  return A;
}

Value *createMaskedAccess(IRBuilderBase &B, const MaskedAccess &A, Type *VecTy,
                          Value *Ptr, Value *Mask, Value *Data) {
  if (A.IsStore)
    return A.IsGatherScatter
               ? B.CreateMaskedScatter(Data, Ptr, A.Alignment, Mask)
               : B.CreateMaskedStore(Data, Ptr, A.Alignment, Mask);
  return A.IsGatherScatter
             ? B.CreateMaskedGather(VecTy, Ptr, A.Alignment, Mask, Data)
             : B.CreateMaskedLoad(VecTy, Ptr, A.Alignment, Mask, Data);
}

static bool isAllTrue(Value *Mask) {
  auto *C = dyn_cast<Constant>(Mask);
  return C && C->isAllOnesValue();
}

/// Lane \p K of a gather/scatter as a one-lane masked access, so that a lane
/// whose mask bit is clear touches no memory (its pointer may be invalid).
static VectorType *oneLane(Type *Elt) { return FixedVectorType::get(Elt, 1); }
static Value *asOneLane(IRBuilderBase &B, Value *Scalar) {
  return B.CreateInsertElement(PoisonValue::get(oneLane(Scalar->getType())),
                               Scalar, uint64_t(0));
}

void accumulateMaskedLanes(IRBuilderBase &B, const MaskedAccess &A,
                           Value *ShadowPtr, Value *Mask, Value *DY) {
  auto *VT = cast<FixedVectorType>(DY->getType());
  if (!A.IsGatherScatter) {
    Value *Old = B.CreateMaskedLoad(VT, ShadowPtr, A.Alignment, Mask,
                                    Constant::getNullValue(VT));
    B.CreateMaskedStore(B.CreateFAdd(Old, DY), ShadowPtr, A.Alignment, Mask);
    return;
  }
  Type *Elt = VT->getElementType();
  bool AllLanes = isAllTrue(Mask);
  for (unsigned K = 0, N = VT->getNumElements(); K < N; ++K) {
    Value *P = B.CreateExtractElement(ShadowPtr, K);
    Value *D = B.CreateExtractElement(DY, K);
    if (AllLanes) {
      Value *Old = B.CreateAlignedLoad(Elt, P, A.Alignment);
      B.CreateAlignedStore(B.CreateFAdd(Old, D), P, A.Alignment);
      continue;
    }
    Value *M = asOneLane(B, B.CreateExtractElement(Mask, K));
    Value *Old = B.CreateMaskedLoad(oneLane(Elt), P, A.Alignment, M,
                                    Constant::getNullValue(oneLane(Elt)));
    B.CreateMaskedStore(B.CreateFAdd(Old, asOneLane(B, D)), P, A.Alignment, M);
  }
}

Value *takeMaskedLanes(IRBuilderBase &B, const MaskedAccess &A, Type *VecTy,
                       Value *ShadowPtr, Value *Mask) {
  auto *VT = cast<FixedVectorType>(VecTy);
  Constant *Zero = Constant::getNullValue(VT);
  if (!A.IsGatherScatter) {
    Value *D = B.CreateMaskedLoad(VT, ShadowPtr, A.Alignment, Mask, Zero);
    B.CreateMaskedStore(Zero, ShadowPtr, A.Alignment, Mask);
    return D;
  }
  Type *Elt = VT->getElementType();
  Constant *EltZero = Constant::getNullValue(Elt);
  bool AllLanes = isAllTrue(Mask);
  Value *Result = Zero;
  // Last lane first: when lanes alias, the last one's value survived, so it
  // alone receives the adjoint and the earlier lanes read the zero it leaves.
  for (unsigned K = VT->getNumElements(); K-- > 0;) {
    Value *P = B.CreateExtractElement(ShadowPtr, K);
    Value *D;
    if (AllLanes) {
      D = B.CreateAlignedLoad(Elt, P, A.Alignment);
      B.CreateAlignedStore(EltZero, P, A.Alignment);
    } else {
      Value *M = asOneLane(B, B.CreateExtractElement(Mask, K));
      Constant *LaneZero = Constant::getNullValue(oneLane(Elt));
      Value *D1 = B.CreateMaskedLoad(oneLane(Elt), P, A.Alignment, M, LaneZero);
      B.CreateMaskedStore(LaneZero, P, A.Alignment, M);
      D = B.CreateExtractElement(D1, uint64_t(0));
    }
    Result = B.CreateInsertElement(Result, D, K);
  }
  return Result;
}

/// Like a load; the passthru lanes flow through as well.
static bool maskedLoadActivity(CallActivity &A, const CallBase &Call,
                               const CalleeInfo &) {
  const Value *Ptr = Call.getArgOperand(0), *PassThru = Call.getArgOperand(2);
  bool Changed = false;
  if (A.hasShadow(Ptr))
    Changed |= A.markVaried(&Call) | A.markShadowed(&Call);
  if (A.isVaried(PassThru))
    Changed |= A.markVaried(&Call);
  if (A.hasShadow(PassThru))
    Changed |= A.markShadowed(&Call);
  return Changed;
}

static bool maskedAccessTangent(TangentEmitter &E, CallBase &Call,
                                const CalleeInfo &) {
  MaskedAccess A = *asMaskedAccess(Call);
  Value *Mask = E.primal(A.Mask);
  if (!E.hasShadow(A.Ptr)) {
    if (A.IsStore && (E.isVaried(A.Data) || E.hasShadow(A.Data))) {
      reportStoreWithoutShadow(E.Diag, Call);
      return false;
    }
    // Lanes not loaded keep the passthru's tangent.
    if (!A.IsStore && E.isVaried(&Call))
      E.setTangent(
          Call, E.B.CreateSelect(Mask, Constant::getNullValue(Call.getType()),
                                 E.tangent(A.Data)));
    return true;
  }
  Type *DataTy = A.Data->getType();
  if (DataTy->isPtrOrPtrVectorTy() || !isDifferentiableType(DataTy)) {
    if (!DataTy->isPtrOrPtrVectorTy())
      return true; // Integer lanes carry no derivative.
    reportMaskedPointerAccess(E.Diag, Call);
    return false;
  }
  Value *SP = E.shadow(A.Ptr, &Call);
  if (!SP)
    return false;
  Value *T = createMaskedAccess(E.B, A, DataTy, SP, Mask, E.tangent(A.Data));
  if (!A.IsStore)
    E.setTangent(Call, T);
  return true;
}

static bool maskedAccessForward(ShadowEmitter &E, CallBase &Call,
                                const CalleeInfo &) {
  MaskedAccess A = *asMaskedAccess(Call);
  bool Active = E.hasShadow(A.Ptr) || E.isVaried(A.Data) || E.hasShadow(A.Data);
  if (!Active || !A.Data->getType()->isPtrOrPtrVectorTy())
    return true;
  reportMaskedPointerAccess(E.Diag, Call);
  return false;
}

static bool maskedAccessAdjoint(AdjointEmitter &E, CallBase &Call,
                                const CalleeInfo &, Value *DY) {
  MaskedAccess A = *asMaskedAccess(Call);
  IRBuilderBase &B = E.B;
  Type *DataTy = A.Data->getType();
  if (!isDifferentiableType(DataTy))
    return true;
  if (!A.IsStore && !DY)
    return true;
  bool Shadowed = E.hasShadow(A.Ptr);
  if (!Shadowed && (A.IsStore || !E.isVaried(A.Data)))
    return true;
  Value *Mask = E.primal(A.Mask);
  if (!A.IsStore && E.isVaried(A.Data)) // Lanes not loaded are the passthru's.
    E.addAdjoint(A.Data, B.CreateSelect(Mask, adjointZero(DataTy), DY));
  if (!Shadowed)
    return true;
  Value *SP = E.shadow(A.Ptr, &Call);
  if (!SP)
    return false;
  if (!A.IsStore) {
    accumulateMaskedLanes(B, A, SP, Mask, DY);
    return true;
  }
  Value *D = takeMaskedLanes(B, A, DataTy, SP, Mask);
  E.addAdjoint(A.Data, D);
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::MaskedLoad,   ToResult, Writes,   NotFresh,  Unrelated,
     maskedLoadActivity,     maskedAccessTangent,
     maskedAccessForward,                            maskedAccessAdjoint},
  {CalleeKind::MaskedStore,  Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                maskedAccessTangent,
     maskedAccessForward,                            maskedAccessAdjoint}
};
// clang-format on

} // namespace

ArrayRef<CallRow> maskedMemoryRows() { return Rows; }

} // namespace ad
