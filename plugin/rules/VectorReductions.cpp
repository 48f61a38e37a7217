//===- VectorReductions.cpp - Derivatives of llvm.vector.reduce.* -----------===//
#include "rules/VectorReductions.h"

using namespace llvm;

namespace ad {

bool isFPReduction(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    return true;
  default:
    return false;
  }
}

unsigned reductionVectorOperand(Intrinsic::ID ID) {
  return ID == Intrinsic::vector_reduce_fadd ||
                 ID == Intrinsic::vector_reduce_fmul
             ? 1
             : 0;
}

ReductionPartials reductionPartials(IRBuilderBase &B, Intrinsic::ID ID,
                                    Value *Start, Value *Vec, Value *Result) {
  auto *VT = cast<FixedVectorType>(Vec->getType());
  Type *ET = VT->getElementType();
  unsigned N = VT->getNumElements();
  Constant *One = ConstantFP::get(ET, 1.0), *Zero = ConstantFP::get(ET, 0.0);
  ReductionPartials P;
  switch (ID) {
  case Intrinsic::vector_reduce_fadd:
    P.Start = One;
    P.Vector = ConstantFP::get(VT, 1.0);
    return P;
  case Intrinsic::vector_reduce_fmul: {
    // d/dstart = prod(v); d/dv_i = start * prod_{j != i} v_j (exact, also
    // where some v_j is zero, unlike result / v_i).
    SmallVector<Value *, 8> Lanes;
    for (unsigned I = 0; I < N; ++I)
      Lanes.push_back(B.CreateExtractElement(Vec, I));
    Value *All = One;
    for (Value *L : Lanes)
      All = B.CreateFMul(All, L);
    P.Start = All;
    Value *PV = PoisonValue::get(VT);
    for (unsigned I = 0; I < N; ++I) {
      Value *Others = Start;
      for (unsigned J = 0; J < N; ++J)
        if (J != I)
          Others = B.CreateFMul(Others, Lanes[J]);
      PV = B.CreateInsertElement(PV, Others, I);
    }
    P.Vector = PV;
    return P;
  }
  default: {
    // max/min pick one lane: the first whose value is the result.
    Value *PV = PoisonValue::get(VT);
    Value *Found = B.getFalse();
    for (unsigned I = 0; I < N; ++I) {
      Value *Is = B.CreateFCmpOEQ(B.CreateExtractElement(Vec, I), Result);
      Value *Picked = B.CreateAnd(Is, B.CreateNot(Found));
      Found = B.CreateOr(Found, Is);
      PV = B.CreateInsertElement(PV, B.CreateSelect(Picked, One, Zero), I);
    }
    P.Vector = PV;
    P.Guard = ZeroGuard::Partial;
    return P;
  }
  }
}

} // namespace ad
