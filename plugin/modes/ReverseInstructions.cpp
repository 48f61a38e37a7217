//===- ReverseInstructions.cpp - The adjoint of each kind of instruction
//----===//
//
// Called for each primal instruction, last to first, with the builder at the
// end of its reverse block. Each visitor reads the adjoint of the result
// (resetting it) and adds the contributions to its operands' adjoints or to
// shadow memory.
//
//===----------------------------------------------------------------------===//
#include "analysis/TypeAnalysis.h"
#include "modes/ConstantShadows.h"
#include "core/IRHelpers.h"
#include "modes/InnerTapes.h"
#include "modes/ReverseBuilder.h"
#include "rules/ComplexRules.h"
#include "rules/CustomRules.h"
#include "rules/KnownFunctions.h"
#include "rules/MaskedMemory.h"
#include "rules/MathRules.h"
#include "rules/VectorReductions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

bool ReverseBuilder::reverseVisit(Instruction &I) {
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return reverseStore(*SI);
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    Value *DY = nullptr;
    CalleeKind Kind = classifyCallee(*Call).Kind;
    if (AA.isVaried(&I) &&
        (Kind == CalleeKind::Math || Kind == CalleeKind::ComplexMath ||
         Kind == CalleeKind::FPReduction || Kind == CalleeKind::MaskedLoad ||
         Kind == CalleeKind::Custom))
      DY = takeAdjoint(&I);
    return reverseCall(*Call, DY);
  }
  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    if (HeapShadows.count(AI))
      B.CreateCall(Ctx.Runtime.free(), {shadowInReverse(AI, AI)});
    return true;
  }
  if (!AA.isVaried(&I))
    return true;

  Value *DY = takeAdjoint(&I);
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Value *SP = shadowInReverse(LI->getPointerOperand(), &I);
    if (!SP)
      return false;
    accumulateIntoMemory(B, SP, DY, LI->getAlign());
    return true;
  }
  if (const MathRule *Rule = lookupInstructionRule(I.getOpcode()))
    return reverseByRule(I, *Rule, DY);
  return reverseStructural(I, DY);
}

/// Adds partial * DY to each varied argument's adjoint (the arguments of a
/// call are its first operands, so instructions and calls share this).
bool ReverseBuilder::reverseByRule(Instruction &I, const MathRule &Rule,
                                   Value *DY) {
  auto Primal = [&](int K) -> Value * {
    return primalInReverse(K == Result ? &I : I.getOperand(K));
  };
  for (unsigned K = 0; K < Rule.NumDiffArgs; ++K) {
    Value *Op = I.getOperand(K);
    if (!AA.isVaried(Op))
      continue;
    if (Value *Term = partialTerm(B, Rule, K, Primal, I.getType(), DY))
      addAdjoint(Op, Term);
  }
  return true;
}

bool ReverseBuilder::reverseStructural(Instruction &I, Value *DY) {
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    addAdjoint(I.getOperand(0), B.CreateFPCast(DY, I.getOperand(0)->getType()));
    return true;
  case Instruction::BitCast: {
    Value *Op = I.getOperand(0);
    Type *OpTy = AA.derivativeType(Op);
    if (OpTy == DY->getType()) { // Floating-point bits through an integer.
      addAdjoint(Op, DY);
      return true;
    }
    if (isDifferentiableType(OpTy)) {
      addAdjoint(Op, B.CreateBitCast(DY, OpTy));
      return true;
    }
    break;
  }
  case Instruction::Freeze:
    addAdjoint(I.getOperand(0), DY);
    return true;
  case Instruction::Select: {
    auto *Sel = cast<SelectInst>(&I);
    // DY's type, not the select's: an integer select of floating-point bits
    // has a floating-point adjoint.
    Value *Zero = adjointZero(DY->getType());
    Value *C = primalInReverse(Sel->getCondition());
    if (AA.isVaried(Sel->getTrueValue()))
      addAdjoint(Sel->getTrueValue(), B.CreateSelect(C, DY, Zero));
    if (AA.isVaried(Sel->getFalseValue()))
      addAdjoint(Sel->getFalseValue(), B.CreateSelect(C, Zero, DY));
    return true;
  }
  case Instruction::ExtractValue: {
    auto *EV = cast<ExtractValueInst>(&I);
    Value *Agg = EV->getAggregateOperand();
    addAdjoint(Agg, B.CreateInsertValue(adjointZero(Agg->getType()), DY,
                                        EV->getIndices()));
    return true;
  }
  case Instruction::InsertValue: {
    auto *IV = cast<InsertValueInst>(&I);
    Value *Val = IV->getInsertedValueOperand();
    if (AA.isVaried(Val))
      addAdjoint(Val, B.CreateExtractValue(DY, IV->getIndices()));
    addAdjoint(
        IV->getAggregateOperand(),
        B.CreateInsertValue(DY, adjointZero(Val->getType()), IV->getIndices()));
    return true;
  }
  case Instruction::ExtractElement: {
    auto *EE = cast<ExtractElementInst>(&I);
    Value *Vec = EE->getVectorOperand();
    Value *Idx = primalInReverse(EE->getIndexOperand());
    addAdjoint(Vec,
               B.CreateInsertElement(adjointZero(Vec->getType()), DY, Idx));
    return true;
  }
  case Instruction::InsertElement: {
    auto *IE = cast<InsertElementInst>(&I);
    Value *Idx = primalInReverse(IE->getOperand(2));
    Value *Elt = IE->getOperand(1);
    if (AA.isVaried(Elt))
      addAdjoint(Elt, B.CreateExtractElement(DY, Idx));
    addAdjoint(IE->getOperand(0),
               B.CreateInsertElement(DY, adjointZero(Elt->getType()), Idx));
    return true;
  }
  case Instruction::ShuffleVector: {
    auto *SV = cast<ShuffleVectorInst>(&I);
    Value *V1 = SV->getOperand(0), *V2 = SV->getOperand(1);
    auto *InTy = cast<FixedVectorType>(V1->getType());
    unsigned N = InTy->getNumElements();
    Value *D1 = adjointZero(InTy), *D2 = D1;
    ArrayRef<int> Mask = SV->getShuffleMask();
    for (unsigned Lane = 0; Lane < Mask.size(); ++Lane) {
      int M = Mask[Lane];
      if (M < 0)
        continue;
      Value *&D = unsigned(M) < N ? D1 : D2;
      unsigned Src = unsigned(M) % N;
      Value *Sum = B.CreateFAdd(B.CreateExtractElement(D, Src),
                                B.CreateExtractElement(DY, Lane));
      D = B.CreateInsertElement(D, Sum, Src);
    }
    addAdjoint(V1, D1);
    addAdjoint(V2, D2);
    return true;
  }
  default:
    break;
  }
  Ctx.Diag.error(&I,
                 Twine("no derivative rule for instruction '") +
                     I.getOpcodeName() + "'",
                 "rewrite this operation or report it as a missing rule");
  return false;
}

bool ReverseBuilder::reverseStore(StoreInst &I) {
  Value *Val = I.getValueOperand(), *Ptr = I.getPointerOperand();
  Type *T = AA.derivativeType(Val);
  if (!AA.hasShadow(Ptr))
    return true;
  if (AA.movesPointerBits(Val))
    return true; // A pointer's bits: its shadow carries no adjoint.
  if (!isDifferentiableType(T)) {
    // An integer overwrote whatever was there, maybe a float whose adjoint
    // must not flow to the code before this store.
    if (!T->isIntOrIntVectorTy())
      return true;
    Value *SP = shadowInReverse(Ptr, &I);
    if (!SP)
      return false;
    B.CreateAlignedStore(Constant::getNullValue(T), SP, I.getAlign(),
                         I.isVolatile());
    return true;
  }
  // The stored value's adjoint is what the shadow holds now; the location's
  // previous value was overwritten, so its adjoint starts from zero.
  Value *SP = shadowInReverse(Ptr, &I);
  if (!SP)
    return false;
  Value *D = B.CreateAlignedLoad(T, SP, I.getAlign(), I.isVolatile());
  B.CreateAlignedStore(Constant::getNullValue(T), SP, I.getAlign(),
                       I.isVolatile());
  addAdjoint(Val, D);
  return true;
}

bool ReverseBuilder::reverseMaskedAccess(CallBase &I, Value *DY) {
  MaskedAccess A = *asMaskedAccess(I);
  Type *DataTy = A.Data->getType();
  if (!isDifferentiableType(DataTy))
    return true;
  if (!A.IsStore && !DY)
    return true;
  bool Shadowed = AA.hasShadow(A.Ptr);
  if (!Shadowed && (A.IsStore || !AA.isVaried(A.Data)))
    return true;
  Value *Mask = primalInReverse(A.Mask);
  if (!A.IsStore && AA.isVaried(A.Data)) // Lanes not loaded are the passthru's.
    addAdjoint(A.Data, B.CreateSelect(Mask, adjointZero(DataTy), DY));
  if (!Shadowed)
    return true;
  Value *SP = shadowInReverse(A.Ptr, &I);
  if (!SP)
    return false;
  if (!A.IsStore) {
    accumulateMaskedLanes(B, A, SP, Mask, DY);
    return true;
  }
  Value *D = takeMaskedLanes(B, A, DataTy, SP, Mask);
  addAdjoint(A.Data, D);
  return true;
}

bool ReverseBuilder::reverseCall(CallBase &I, Value *DY) {
  CalleeInfo Info = classifyCallee(I);
  switch (Info.Kind) {
  case CalleeKind::Math: {
    return !DY || reverseByRule(I, *Info.Rule, DY);
  }
  case CalleeKind::ComplexMath: {
    if (!DY)
      return true;
    auto Primal = [&](int K) -> Value * {
      return primalInReverse(K == Result ? &I : I.getArgOperand(K));
    };
    complexAdjoints(
        B, *Info.Complex, I, Primal, DY,
        [&](unsigned K) { return AA.isVaried(I.getArgOperand(K)); },
        [&](unsigned K, Value *D) { addAdjoint(I.getArgOperand(K), D); });
    return true;
  }
  case CalleeKind::FPReduction: {
    if (!DY)
      return true;
    Intrinsic::ID ID = I.getCalledFunction()->getIntrinsicID();
    unsigned VecOp = reductionVectorOperand(ID);
    Value *Vec = I.getArgOperand(VecOp);
    // fadd's partials are constant: fetch no primal values for it.
    bool NeedsPrimal = ID != Intrinsic::vector_reduce_fadd;
    Value *Start =
        VecOp && NeedsPrimal ? primalInReverse(I.getArgOperand(0)) : nullptr;
    Value *PVec = NeedsPrimal ? primalInReverse(Vec) : Vec;
    Value *PRes = NeedsPrimal ? primalInReverse(&I) : nullptr;
    ReductionPartials P = reductionPartials(B, ID, Start, PVec, PRes);
    auto *VT = cast<FixedVectorType>(Vec->getType());
    addAdjoint(Vec, guardedTerm(B, P.Guard, P.Vector,
                                B.CreateVectorSplat(VT->getNumElements(), DY)));
    if (VecOp)
      addAdjoint(I.getArgOperand(0), guardedTerm(B, P.Guard, P.Start, DY));
    return true;
  }
  case CalleeKind::MaskedLoad:
  case CalleeKind::MaskedStore:
    return reverseMaskedAccess(I, DY);
  case CalleeKind::Defined:
    return reverseCallToDefined(I);
  case CalleeKind::Custom:
    return !DY || reverseCustomCall(I, *Info.Custom, DY);
  case CalleeKind::TapePush:
  case CalleeKind::TapePop:
  case CalleeKind::TapeReserve:
  case CalleeKind::TapeFree:
    if (Info.Kind == CalleeKind::TapePush && AA.hasShadow(&I)) {
      Value *Record = shadowInReverse(&I, &I);
      if (!Record)
        return false;
      reverseOfTapeCall(B, Ctx.Runtime, Info.Kind, Record);
    }
    return true;
  case CalleeKind::NoEffect:
  case CalleeKind::Inactive:
  case CalleeKind::Unknown: // Active unknown calls failed in the forward sweep.
    return true;
  default:
    return reverseMemoryCall(I, unsigned(Info.Kind));
  }
}

/// f_rev(primals, dret, &d1, ...) with every d zeroed first, then each
/// d added to its argument's adjoint (see CustomRules.h). forwardCall has
/// checked the rule already, so fetching it here reports nothing new.
bool ReverseBuilder::reverseCustomCall(CallBase &I, const CustomRule &Rule,
                                       Value *DY) {
  Function *Rev = checkedRule(
      I, Rule, RuleMode::Reverse,
      [&](const Value *V) { return AA.hasShadow(V); }, Ctx.Diag);
  if (!Rev)
    return false;
  SmallVector<Value *, 8> Args;
  for (Value *Arg : I.args())
    Args.push_back(primalInReverse(Arg));
  Args.push_back(DY);
  SmallVector<std::pair<Value *, AllocaInst *>, 4> Outs;
  for (Value *Arg : I.args()) {
    if (!Arg->getType()->isFloatingPointTy())
      continue;
    AllocaInst *D = scratchSlot(Arg->getType(), Arg->getName() + ".rule.adj");
    B.CreateStore(ConstantFP::getZero(Arg->getType()), D);
    Args.push_back(D);
    Outs.push_back({Arg, D});
  }
  B.CreateCall(Rev, Args);
  for (auto [Arg, D] : Outs)
    if (AA.isVaried(Arg))
      addAdjoint(Arg, B.CreateLoad(Arg->getType(), D));
  return true;
}

bool ReverseBuilder::reverseMemoryCall(CallBase &I, unsigned KindNumber) {
  auto Kind = CalleeKind(KindNumber);
  RuntimeFunctions &RT = Ctx.Runtime;
  switch (Kind) {
  case CalleeKind::Malloc:
  case CalleeKind::Calloc:
  case CalleeKind::AllocOut:
    if (HeapShadows.count(&I))
      B.CreateCall(RT.free(), {shadowInReverse(&I, &I)});
    return true;
  case CalleeKind::Realloc: {
    Value *New = shadowInReverse(&I, &I);
    Value *Old = shadowInReverse(I.getArgOperand(0), &I);
    if (!New || !Old)
      return false;
    auto Layout = Ctx.Types.layoutOfReallocation(I);
    if (!Layout) {
      Ctx.Diag.error(&I,
                     "cannot tell which bytes of this reallocated memory hold "
                     "floating-point data",
                     "access the buffer through a typed pointer");
      return false;
    }
    if (!Layout->Floats.empty()) {
      Value *Size = primalInReverse(I.getArgOperand(1));
      Value *OldSize = B.CreateCall(RT.mallocUsableSize(), {Old});
      Value *Kept = B.CreateBinaryIntrinsic(Intrinsic::umin, OldSize, Size);
      Value *Count = B.CreateUDiv(Kept, B.getInt64(Layout->Stride));
      for (const FloatField &F : Layout->Floats)
        B.CreateCall(RT.memcpyAdjoint(F.Ty),
                     {B.CreateConstGEP1_64(B.getInt8Ty(), Old, F.Offset),
                      B.CreateConstGEP1_64(B.getInt8Ty(), New, F.Offset), Count,
                      B.getInt64(Layout->Stride)});
    }
    B.CreateCall(RT.free(), {New});
    return true;
  }
  case CalleeKind::MemSet: {
    Value *Dst = I.getArgOperand(0);
    if (!AA.hasShadow(Dst))
      return true;
    Value *SD = shadowInReverse(Dst, &I);
    if (!SD)
      return false;
    B.CreateMemSet(SD, B.getInt8(0), primalInReverse(I.getArgOperand(2)),
                   MaybeAlign());
    return true;
  }
  case CalleeKind::MemCopy: {
    Value *Dst = I.getArgOperand(0), *Src = I.getArgOperand(1);
    if (!AA.hasShadow(Dst))
      return true;
    Value *SD = shadowInReverse(Dst, &I);
    if (!SD)
      return false;
    Value *Len = primalInReverse(I.getArgOperand(2));
    if (!AA.hasShadow(Src)) {
      // Constant data overwrote the destination.
      B.CreateMemSet(SD, B.getInt8(0), Len, MaybeAlign());
      return true;
    }
    Value *SS = shadowInReverse(Src, &I);
    if (!SS)
      return false;
    auto Layout = Ctx.Types.layoutOfCopy(I);
    Value *Count = B.CreateUDiv(B.CreateZExtOrTrunc(Len, B.getInt64Ty()),
                                B.getInt64(Layout->Stride));
    for (const FloatField &F : Layout->Floats)
      B.CreateCall(RT.memcpyAdjoint(F.Ty),
                   {B.CreateConstGEP1_64(B.getInt8Ty(), SS, F.Offset),
                    B.CreateConstGEP1_64(B.getInt8Ty(), SD, F.Offset), Count,
                    B.getInt64(Layout->Stride)});
    return true;
  }
  default:
    return true;
  }
}

bool ReverseBuilder::reverseCallToDefined(CallBase &I) {
  std::optional<DerivativeSignature> Sig = calleeSignature(I);
  if (!Sig)
    return true;
  const DerivativeSignature &Callee = *Sig;
  Type *RetTy = I.getType();
  SplitDerivative D = Ctx.Cache->split(Callee);
  if (!D)
    return false;
  SmallVector<Value *, 2> Args;
  if (Callee.ReturnActive && isDifferentiableType(RetTy))
    Args.push_back(takeAdjoint(&I));
  Args.push_back(TapeRev);
  CallInst *Adjoints = B.CreateCall(D.Adjoint, Args);
  unsigned Field = 0;
  for (auto [U, A] : zip(I.args(), Callee.Args))
    if (A == Activity::Active)
      addAdjoint(U, B.CreateExtractValue(Adjoints, Field++));
  return true;
}

} // namespace ad
