//===- MathCalls.cpp - Rows of calls with partials
//--------------------------===//
#include "rules/MathCalls.h"
#include "rules/CallRows.h"
#include "rules/ComplexRules.h"
#include "rules/MathRules.h"
#include "rules/VectorReductions.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace ad {

Value *tangentByRule(TangentEmitter &E, Instruction &I, const MathRule &Rule) {
  auto Values = [&](int K) -> Value * {
    return E.primal(K == Result ? &I : I.getOperand(K));
  };
  auto Alongside = [&](Intrinsic::ID F) { return E.primalAlongside(I, F); };
  PrimalAccessor Primal(Values, Alongside);
  Value *Sum = nullptr;
  for (unsigned K = 0; K < Rule.NumDiffArgs; ++K) {
    Value *Op = I.getOperand(K);
    if (!E.isVaried(Op))
      continue;
    if (Value *Term =
            partialTerm(E.B, Rule, K, Primal, I.getType(), E.tangent(Op)))
      Sum = Sum ? E.B.CreateFAdd(Sum, Term) : Term;
  }
  return Sum ? Sum : Constant::getNullValue(I.getType());
}

void adjointByRule(AdjointEmitter &E, Instruction &I, const MathRule &Rule,
                   Value *DY) {
  auto Values = [&](int K) -> Value * {
    return E.primal(K == Result ? &I : I.getOperand(K));
  };
  auto Alongside = [&](Intrinsic::ID F) { return E.primalAlongside(I, F); };
  PrimalAccessor Primal(Values, Alongside);
  for (unsigned K = 0; K < Rule.NumDiffArgs; ++K) {
    Value *Op = I.getOperand(K);
    if (!E.isVaried(Op))
      continue;
    if (Value *Term = partialTerm(E.B, Rule, K, Primal, I.getType(), DY))
      E.addAdjoint(Op, Term);
  }
}

static bool mathActivity(CallActivity &A, const CallBase &Call,
                         const CalleeInfo &Info) {
  bool AnyVaried = false;
  for (unsigned K = 0; K < Info.Rule->NumDiffArgs; ++K)
    AnyVaried |= A.isVaried(Call.getArgOperand(K));
  return AnyVaried && A.markVaried(&Call);
}

/// A complex function's arguments are all real components; a reduction's
/// start and vector both flow into it; a custom rule's tangent depends on
/// every argument.
bool everyArgumentActivity(CallActivity &A, const CallBase &Call,
                           const CalleeInfo &) {
  bool AnyVaried = false;
  for (const Use &U : Call.args())
    AnyVaried |= A.isVaried(U);
  return AnyVaried && A.markVaried(&Call);
}

static bool mathTangent(TangentEmitter &E, CallBase &Call,
                        const CalleeInfo &Info) {
  if (E.isVaried(&Call))
    E.setTangent(Call, tangentByRule(E, Call, *Info.Rule));
  return true;
}

static bool mathAdjoint(AdjointEmitter &E, CallBase &Call,
                        const CalleeInfo &Info, Value *DY) {
  if (DY)
    adjointByRule(E, Call, *Info.Rule, DY);
  return true;
}

static bool complexCallTangent(TangentEmitter &E, CallBase &Call,
                               const CalleeInfo &Info) {
  if (!E.isVaried(&Call))
    return true;
  auto Primal = [&](int K) -> Value * {
    return E.primal(K == Result ? &Call : Call.getArgOperand(K));
  };
  auto TangentOfArg = [&](unsigned K) -> Value * {
    Value *Op = Call.getArgOperand(K);
    return E.isVaried(Op) ? E.tangent(Op) : nullptr;
  };
  E.setTangent(Call,
               complexTangent(E.B, *Info.Complex, Call, Primal, TangentOfArg));
  return true;
}

static bool complexCallAdjoint(AdjointEmitter &E, CallBase &Call,
                               const CalleeInfo &Info, Value *DY) {
  if (!DY)
    return true;
  auto Primal = [&](int K) -> Value * {
    return E.primal(K == Result ? &Call : Call.getArgOperand(K));
  };
  complexAdjoints(
      E.B, *Info.Complex, Call, Primal, DY,
      [&](unsigned K) { return E.isVaried(Call.getArgOperand(K)); },
      [&](unsigned K, Value *D) { E.addAdjoint(Call.getArgOperand(K), D); });
  return true;
}

static bool reductionTangent(TangentEmitter &E, CallBase &Call,
                             const CalleeInfo &) {
  if (!E.isVaried(&Call))
    return true;
  IRBuilderBase &B = E.B;
  Intrinsic::ID ID = Call.getCalledFunction()->getIntrinsicID();
  unsigned VecOp = reductionVectorOperand(ID);
  Value *Start = VecOp ? E.primal(Call.getArgOperand(0)) : nullptr;
  ReductionPartials P = reductionPartials(
      B, ID, Start, E.primal(Call.getArgOperand(VecOp)), E.primal(&Call));
  Value *DVec =
      guardedTerm(B, P.Guard, P.Vector, E.tangent(Call.getArgOperand(VecOp)));
  Value *T =
      B.CreateIntrinsic(Intrinsic::vector_reduce_fadd, {DVec->getType()},
                        {ConstantFP::getNegativeZero(Call.getType()), DVec});
  if (VecOp && E.isVaried(Call.getArgOperand(0)))
    T = B.CreateFAdd(
        T, guardedTerm(B, P.Guard, P.Start, E.tangent(Call.getArgOperand(0))));
  E.setTangent(Call, T);
  return true;
}

static bool reductionAdjoint(AdjointEmitter &E, CallBase &Call,
                             const CalleeInfo &, Value *DY) {
  if (!DY)
    return true;
  IRBuilderBase &B = E.B;
  Intrinsic::ID ID = Call.getCalledFunction()->getIntrinsicID();
  unsigned VecOp = reductionVectorOperand(ID);
  Value *Vec = Call.getArgOperand(VecOp);
  // fadd's partials are constant: fetch no primal values for it.
  bool NeedsPrimal = ID != Intrinsic::vector_reduce_fadd;
  Value *Start =
      VecOp && NeedsPrimal ? E.primal(Call.getArgOperand(0)) : nullptr;
  Value *PVec = NeedsPrimal ? E.primal(Vec) : Vec;
  Value *PRes = NeedsPrimal ? E.primal(&Call) : nullptr;
  ReductionPartials P = reductionPartials(B, ID, Start, PVec, PRes);
  auto *VT = cast<FixedVectorType>(Vec->getType());
  E.addAdjoint(Vec, guardedTerm(B, P.Guard, P.Vector,
                                B.CreateVectorSplat(VT->getNumElements(), DY)));
  if (VecOp)
    E.addAdjoint(Call.getArgOperand(0), guardedTerm(B, P.Guard, P.Start, DY));
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::Math,         ToResult, NoWrites, NotFresh,  Unrelated,
     mathActivity,           mathTangent,
     nullptr,                                        mathAdjoint},
  {CalleeKind::ComplexMath,  ToResult, NoWrites, NotFresh,  Unrelated,
     everyArgumentActivity,  complexCallTangent,
     nullptr,                                        complexCallAdjoint},
  {CalleeKind::FPReduction,  ToResult, NoWrites, NotFresh,  Unrelated,
     everyArgumentActivity,  reductionTangent,
     nullptr,                                        reductionAdjoint}
};
// clang-format on

} // namespace

ArrayRef<CallRow> mathCallRows() { return Rows; }

} // namespace ad
