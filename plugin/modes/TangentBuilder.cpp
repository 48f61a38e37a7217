//===- TangentBuilder.cpp - Forward mode
//------------------------------------===//
#include "modes/TangentBuilder.h"
#include "analysis/CallSignature.h"
#include "analysis/TypeAnalysis.h"
#include "modes/ConstantShadows.h"
#include "core/IRHelpers.h"
#include "modes/InnerTapes.h"
#include "modes/MirrorCalls.h"
#include "primal/Preprocess.h"
#include "modes/StoredPointers.h"
#include "modes/UnsupportedConstructs.h"
#include "rules/ComplexRules.h"
#include "rules/CustomRules.h"
#include "rules/KnownFunctions.h"
#include "rules/MaskedMemory.h"
#include "rules/MathRules.h"
#include "rules/VectorReductions.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace ad {

TangentBuilder::TangentBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                               Function *Primal, Function *Tangent)
    : Ctx(Ctx), Sig(Sig), Primal(Primal), NewF(Tangent),
      AA(*Primal, Sig.Args, Ctx.Types, Ctx.Globals), B(Ctx.M.getContext()) {}

bool TangentBuilder::build() {
  if (!checkSupportedConstructs(Ctx, AA, *Primal))
    return false;
  unsigned N = Primal->arg_size();
  for (unsigned I = 0; I < N; ++I)
    VMap[Primal->getArg(I)] = NewF->getArg(I);
  unsigned Next = N;
  for (unsigned I = 0; I < N; ++I)
    if (Sig.Args[I] != Activity::Const)
      Tangents[Primal->getArg(I)] = NewF->getArg(Next++);

  AttributeList Saved = NewF->getAttributes();
  SmallVector<ReturnInst *, 1> Returns;
  CloneFunctionInto(NewF, Primal, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  restoreDerivativeAttributes(*NewF, Saved);

  ReversePostOrderTraversal<Function *> RPOT(Primal);
  for (BasicBlock *BB : RPOT)
    for (PHINode &Phi : BB->phis()) {
      bool Varied = AA.isVaried(&Phi);
      if (!Varied && !AA.hasShadow(&Phi) && !AA.movesPointerBits(&Phi))
        continue;
      auto *ClonePhi = cast<PHINode>(VMap[&Phi]);
      PHINode *T =
          PHINode::Create(Phi.getType(), Phi.getNumIncomingValues(),
                          Phi.getName() + ".d", ClonePhi->getParent()->begin());
      Tangents[&Phi] = T;
      PendingPhis.push_back(&Phi);
    }

  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB)
      if (!isa<PHINode>(I) && !visit(I))
        return false;
  if (!finishPhis())
    return false;
  rewriteReturns();
  return true;
}

Value *TangentBuilder::tangentOf(Value *Orig) {
  if (Value *T = Tangents.lookup(Orig))
    return T;
  return Constant::getNullValue(Orig->getType());
}

Value *TangentBuilder::shadowOf(Value *Orig, Instruction *User) {
  if (Value *T = Tangents.lookup(Orig))
    return T;
  if (auto *C = dyn_cast<Constant>(Orig))
    if (Constant *S = shadowOfConstant(Ctx.M, C, /*ForReverse=*/false))
      return S;
  Ctx.Diag.error(User,
                 "pointer " + Ctx.Diag.describe(*Orig) +
                     " may point to differentiated memory but has no shadow",
                 "pass differentiated pointers as __ad_dup arguments, not "
                 "through globals or integers");
  return nullptr;
}

bool TangentBuilder::visit(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  if (!I.isTerminator())
    B.SetInsertPoint(Clone->getNextNode());

  if (auto *Call = dyn_cast<CallBase>(&I))
    return visitCall(*Call);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return visitStore(*SI);
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return visitLoad(*LI);

  bool Varied = AA.isVaried(&I),
       Shadowed = AA.hasShadow(&I) || AA.movesPointerBits(&I);
  if (!Varied && !Shadowed) {
    // Bits of a float that pass through an integer (a type-punned copy)
    // keep their tangent bits.
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (Value *T = Tangents.lookup(BC->getOperand(0)))
        Tangents[&I] = B.CreateBitCast(T, I.getType());
    return true;
  }

  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    auto *S = cast<AllocaInst>(Clone->clone());
    S->insertAfter(Clone->getIterator());
    S->setName(I.getName() + ".shadow");
    B.SetInsertPoint(S->getNextNode());
    const DataLayout &DL = Ctx.M.getDataLayout();
    Value *Size =
        B.CreateMul(B.CreateZExtOrTrunc(S->getArraySize(), B.getInt64Ty()),
                    B.getInt64(DL.getTypeAllocSize(AI->getAllocatedType())));
    B.CreateMemSet(S, B.getInt8(0), Size, AI->getAlign());
    Tangents[&I] = S;
    return true;
  }

  if (Shadowed && !Varied)
    return visitShadowCopy(I);

  if (const MathRule *Rule = lookupInstructionRule(I.getOpcode())) {
    Tangents[&I] = tangentByRule(I, *Rule);
    return true;
  }

  switch (I.getOpcode()) {
  case Instruction::Select:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::ExtractElement:
  case Instruction::InsertElement:
  case Instruction::ShuffleVector:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
  case Instruction::Freeze:
  case Instruction::BitCast:
    return visitLinearStructural(I);
  default:
    break;
  }
  Ctx.Diag.error(&I,
                 Twine("no derivative rule for instruction '") +
                     I.getOpcodeName() + "'",
                 "rewrite this operation or report it as a missing rule");
  return false;
}

bool TangentBuilder::visitLinearStructural(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  Instruction *T = Clone->clone();
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    Value *Op = I.getOperand(K);
    if (isa<SelectInst>(I) && K == 0)
      continue;
    if (isDifferentiableType(Op->getType()) || AA.fpBitsType(Op))
      T->setOperand(K, tangentOf(Op));
    else if (isPointerLike(Op->getType()) && AA.hasShadow(Op))
      T->setOperand(K, shadowOf(Op, &I));
  }
  T->setName(I.getName() + ".d");
  B.Insert(T);
  Tangents[&I] = T;
  return true;
}

bool TangentBuilder::visitShadowCopy(Instruction &I) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  Instruction *S = Clone->clone();
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    Value *Op = I.getOperand(K);
    if (AA.movesPointerBits(Op)) { // A pointer's bits: its shadow's bits.
      S->setOperand(K, tangentOf(Op));
      continue;
    }
    if (!isPointerLike(Op->getType()))
      continue;
    Value *Shadow = shadowOf(Op, &I);
    if (!Shadow)
      return false;
    S->setOperand(K, Shadow);
  }
  S->setName(I.getName() + ".shadow");
  B.Insert(S);
  Tangents[&I] = S;
  return true;
}

bool TangentBuilder::visitLoad(LoadInst &I) {
  Value *Ptr = I.getPointerOperand();
  if (!AA.hasShadow(Ptr))
    return true;
  bool Carries =
      AA.isVaried(&I) || AA.hasShadow(&I) || AA.movesPointerBits(&I);
  // An integer load from differentiated memory may be half of a type-punned
  // copy of a float: keep its tangent bits when they are stored or cast.
  if (!Carries && I.getType()->isIntegerTy())
    Carries = any_of(I.users(), [](User *U) {
      return isa<StoreInst>(U) || isa<BitCastInst>(U);
    });
  if (!Carries)
    return true;
  Value *Shadow = shadowOf(Ptr, &I);
  if (!Shadow)
    return false;
  LoadInst *T = B.CreateAlignedLoad(I.getType(), Shadow, I.getAlign(),
                                    I.isVolatile(), I.getName() + ".d");
  Tangents[&I] = T;
  return true;
}

Value *TangentBuilder::shadowOfStoredPointer(Value *Val, Instruction *At) {
  if (AA.hasShadow(Val) || isa<Constant>(Val))
    if (Value *S = shadowOf(Val, At))
      return S;
  return shadowForUnshadowedPointer(Ctx, Val, At);
}

bool TangentBuilder::visitStore(StoreInst &I) {
  Value *Ptr = I.getPointerOperand(), *Val = I.getValueOperand();
  if (!AA.hasShadow(Ptr)) {
    if (AA.isVaried(Val) || AA.hasShadow(Val)) {
      reportStoreWithoutShadow(Ctx, I);
      return false;
    }
    return true;
  }
  Value *Shadow = shadowOf(Ptr, &I);
  if (!Shadow)
    return false;
  Value *T;
  if (isPointerLike(Val->getType()))
    T = shadowOfStoredPointer(Val, &I);
  else
    T = tangentOf(Val);
  if (!T)
    return false;
  B.CreateAlignedStore(T, Shadow, I.getAlign(), I.isVolatile());
  return true;
}

bool TangentBuilder::visitMaskedAccess(CallBase &I) {
  MaskedAccess A = *asMaskedAccess(I);
  auto *Clone = cast<CallBase>(VMap[&I]);
  Value *Mask = Clone->getArgOperand(A.MaskArg);
  if (!AA.hasShadow(A.Ptr)) {
    if (A.IsStore && (AA.isVaried(A.Data) || AA.hasShadow(A.Data))) {
      reportStoreWithoutShadow(Ctx, I);
      return false;
    }
    // Lanes not loaded keep the passthru's tangent.
    if (!A.IsStore && AA.isVaried(&I))
      Tangents[&I] = B.CreateSelect(Mask, Constant::getNullValue(I.getType()),
                                    tangentOf(A.Data));
    return true;
  }
  Type *DataTy = A.Data->getType();
  if (DataTy->isPtrOrPtrVectorTy() || !isDifferentiableType(DataTy)) {
    if (!DataTy->isPtrOrPtrVectorTy())
      return true; // Integer lanes carry no derivative.
    reportMaskedPointerAccess(Ctx, I);
    return false;
  }
  Value *SP = shadowOf(A.Ptr, &I);
  if (!SP)
    return false;
  Value *T = createMaskedAccess(B, A, DataTy, SP, Mask, tangentOf(A.Data));
  if (!A.IsStore)
    Tangents[&I] = T;
  return true;
}

/// The sum over the varied arguments of partial * tangent (the arguments of a
/// call are its first operands, so instructions and calls share this).
Value *TangentBuilder::tangentByRule(Instruction &I, const MathRule &Rule) {
  auto *Clone = cast<Instruction>(VMap[&I]);
  auto Primal = [&](int K) -> Value * {
    return K == Result ? Clone : Clone->getOperand(K);
  };
  Value *Sum = nullptr;
  for (unsigned K = 0; K < Rule.NumDiffArgs; ++K) {
    Value *Op = I.getOperand(K);
    if (!AA.isVaried(Op))
      continue;
    if (Value *Term =
            partialTerm(B, Rule, K, Primal, I.getType(), tangentOf(Op)))
      Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
  }
  return Sum ? Sum : Constant::getNullValue(I.getType());
}

bool TangentBuilder::visitCall(CallBase &I) {
  CalleeInfo Info = classifyCallee(I);
  auto *Clone = cast<CallBase>(VMap[&I]);
  switch (Info.Kind) {
  case CalleeKind::NoEffect:
  case CalleeKind::Inactive:
    return true;
  case CalleeKind::Math: {
    if (AA.isVaried(&I))
      Tangents[&I] = tangentByRule(I, *Info.Rule);
    return true;
  }
  case CalleeKind::ComplexMath: {
    if (!AA.isVaried(&I))
      return true;
    auto Primal = [&](int K) -> Value * {
      return K == Result ? Clone : Clone->getArgOperand(K);
    };
    auto TangentOfArg = [&](unsigned K) -> Value * {
      Value *Op = I.getArgOperand(K);
      return AA.isVaried(Op) ? tangentOf(Op) : nullptr;
    };
    Tangents[&I] = complexTangent(B, *Info.Complex, I, Primal, TangentOfArg);
    return true;
  }
  case CalleeKind::FPReduction: {
    if (!AA.isVaried(&I))
      return true;
    Intrinsic::ID ID = I.getCalledFunction()->getIntrinsicID();
    unsigned VecOp = reductionVectorOperand(ID);
    Value *Start = VecOp ? Clone->getArgOperand(0) : nullptr;
    ReductionPartials P =
        reductionPartials(B, ID, Start, Clone->getArgOperand(VecOp), Clone);
    Value *DVec =
        guardedTerm(B, P.Guard, P.Vector, tangentOf(I.getArgOperand(VecOp)));
    Value *T =
        B.CreateIntrinsic(Intrinsic::vector_reduce_fadd, {DVec->getType()},
                          {ConstantFP::getNegativeZero(I.getType()), DVec});
    if (VecOp && AA.isVaried(I.getArgOperand(0)))
      T = B.CreateFAdd(
          T, guardedTerm(B, P.Guard, P.Start, tangentOf(I.getArgOperand(0))));
    Tangents[&I] = T;
    return true;
  }
  case CalleeKind::MaskedLoad:
  case CalleeKind::MaskedStore:
    return visitMaskedAccess(I);
  case CalleeKind::Defined:
    return visitCallToDefined(I);
  case CalleeKind::Custom:
    return visitCustomCall(I, *Info.Custom);
  case CalleeKind::TapePush:
  case CalleeKind::TapePop:
  case CalleeKind::TapeReserve:
  case CalleeKind::TapeFree: {
    Value *Tape = I.getArgOperand(0);
    if (!AA.hasShadow(Tape))
      return true;
    Value *ShadowTape = shadowOf(Tape, &I);
    if (!ShadowTape)
      return false;
    Value *Bytes = I.arg_size() > 1 ? cloneOf(I.getArgOperand(1)) : nullptr;
    if (Value *Record =
            tangentOfTapeCall(B, Ctx.Runtime, Info.Kind, ShadowTape, Bytes))
      Tangents[&I] = Record;
    return true;
  }
  case CalleeKind::Unknown:
    break;
  default:
    return visitMemoryCall(I, unsigned(Info.Kind));
  }
  bool Active = AA.isVaried(&I) || AA.hasShadow(&I);
  for (const Use &U : I.args())
    Active |= AA.isVaried(U) || AA.hasShadow(U);
  if (!Active)
    return true;
  // Entry-point calls inside differentiated code were lowered before it
  // (driver/LoweringOrder.h); what remains here has no body.
  Function *Callee = I.getCalledFunction();
  Ctx.Diag.error(&I,
                 Callee ? "call to '" + Callee->getName() +
                              "', which has no body and no derivative rule"
                        : Twine("indirect call or inline assembly with "
                                "differentiated arguments"),
                 "define the function in this module, or call it only with "
                 "__ad_const data");
  return false;
}

bool TangentBuilder::visitMemoryCall(CallBase &I, unsigned KindNumber) {
  auto Kind = CalleeKind(KindNumber);
  RuntimeFunctions &RT = Ctx.Runtime;
  switch (Kind) {
  case CalleeKind::Malloc:
  case CalleeKind::Calloc: {
    const AllocationShape &S = *classifyCallee(I).Alloc;
    auto Arg = [&](int K) {
      return K < 0 ? nullptr : cloneOf(I.getArgOperand(K));
    };
    Tangents[&I] =
        RT.allocateShadow(B, Arg(S.CountArg), Arg(S.SizeArg), Arg(S.AlignArg));
    return true;
  }
  case CalleeKind::AllocOut: {
    // posix_memalign(&p, ...): p's shadow, allocated alike, goes to the
    // shadow of &p (without one, p holds no derivatives: nothing to do).
    Value *Out = I.getArgOperand(0);
    if (!AA.hasShadow(Out))
      return true;
    Value *SO = shadowOf(Out, &I);
    if (!SO)
      return false;
    const AllocationShape &S = *classifyCallee(I).Alloc;
    RT.allocateShadowOut(B, SO, cloneOf(I.getArgOperand(S.AlignArg)),
                         cloneOf(I.getArgOperand(S.SizeArg)), VMap[&I]);
    return true;
  }
  case CalleeKind::Realloc: {
    Value *Old = shadowOf(I.getArgOperand(0), &I);
    if (!Old)
      return false;
    FunctionCallee Realloc = Ctx.M.getOrInsertFunction(
        "realloc", I.getType(), I.getType(), B.getInt64Ty());
    Tangents[&I] = B.CreateCall(Realloc, {Old, cloneOf(I.getArgOperand(1))},
                                "shadow.realloc");
    return true;
  }
  case CalleeKind::Free: {
    Value *Ptr = I.getArgOperand(0);
    if (!AA.hasShadow(Ptr))
      return true;
    Value *S = shadowOf(Ptr, &I);
    if (!S)
      return false;
    B.CreateCall(RT.free(), {S});
    return true;
  }
  case CalleeKind::MemCopy: {
    Value *Dst = I.getArgOperand(0), *Src = I.getArgOperand(1);
    bool DstS = AA.hasShadow(Dst),
         SrcS = AA.hasShadow(Src) || hasConstantShadow(Src);
    if (DstS && SrcS) {
      auto *Copy = cast<CallBase>(cast<CallBase>(VMap[&I])->clone());
      Copy->setArgOperand(0, shadowOf(Dst, &I));
      Copy->setArgOperand(1, shadowOf(Src, &I));
      B.Insert(Copy);
    } else if (DstS) {
      B.CreateMemSet(shadowOf(Dst, &I), B.getInt8(0),
                     cloneOf(I.getArgOperand(2)), MaybeAlign());
    } else if (AA.hasShadow(Src)) {
      // (A read-only global's constant shadow holds no derivative: copying
      // from it into memory without a shadow, a string literal into a
      // character buffer, loses nothing.)
      auto Layout = Ctx.Types.layoutOfCopy(I);
      if (!Layout || !Layout->Floats.empty()) {
        Ctx.Diag.error(&I,
                       "differentiated memory is copied into memory that has "
                       "no shadow",
                       "give the destination a shadow (pass it as __ad_dup)");
        return false;
      }
    }
    return true;
  }
  case CalleeKind::MirrorCall: {
    Value *S;
    if (!emitMirrorCall(
            Ctx, AA, I, *cast<CallBase>(VMap[&I]), B, *classifyCallee(I).Mirror,
            [&](Value *V) { return shadowOf(V, &I); },
            [&](Value *V) { return cloneOf(V); }, S))
      return false;
    if (S && AA.hasShadow(&I))
      Tangents[&I] = S;
    return true;
  }
  case CalleeKind::MemSet: {
    Value *Dst = I.getArgOperand(0);
    if (AA.hasShadow(Dst))
      B.CreateMemSet(shadowOf(Dst, &I), B.getInt8(0),
                     cloneOf(I.getArgOperand(2)), MaybeAlign());
    return true;
  }
  default:
    return true;
  }
}

bool TangentBuilder::visitCallToDefined(CallBase &I) {
  std::optional<DerivativeSignature> Sig =
      signatureForCall(I, AA, DerivativeKind::Tangent);
  if (!Sig)
    return true;
  const DerivativeSignature &Callee = *Sig;
  Function *T = Ctx.Cache->tangent(Callee);
  if (!T)
    return false;

  auto *Clone = cast<CallBase>(VMap[&I]);
  SmallVector<Value *, 8> Args(Clone->args());
  for (auto [U, A] : zip(I.args(), Callee.Args)) {
    if (A == Activity::Shadowed) {
      Value *S = shadowOf(U, &I);
      if (!S)
        return false;
      Args.push_back(S);
    } else if (A == Activity::Active) {
      Args.push_back(tangentOf(U));
    }
  }
  B.SetInsertPoint(Clone);
  CallInst *New = B.CreateCall(T, Args);
  New->setDebugLoc(Clone->getDebugLoc());
  Value *PrimalResult = New;
  if (Callee.ReturnActive) {
    PrimalResult = B.CreateExtractValue(New, 0);
    Tangents[&I] = B.CreateExtractValue(New, 1, I.getName() + ".d");
  }
  Clone->replaceAllUsesWith(PrimalResult);
  Clone->eraseFromParent();
  return true;
}

/// The primal call stays; after it, f_fwd(primals, tangents) (see
/// CustomRules.h), with a zero tangent for inactive arguments.
bool TangentBuilder::visitCustomCall(CallBase &I, const CustomRule &Rule) {
  if (!AA.isVaried(&I))
    return true;
  Function *Fwd = checkedRule(
      I, Rule, RuleMode::Forward,
      [&](const Value *V) { return AA.hasShadow(V); }, Ctx.Diag);
  if (!Fwd)
    return false;
  auto *Clone = cast<CallBase>(VMap[&I]);
  SmallVector<Value *, 8> Args(Clone->args());
  for (Value *Arg : I.args())
    if (Arg->getType()->isFloatingPointTy())
      Args.push_back(tangentOf(Arg));
  Tangents[&I] = B.CreateCall(Fwd, Args, I.getName() + ".d");
  return true;
}

bool TangentBuilder::finishPhis() {
  for (PHINode *Phi : PendingPhis) {
    auto *T = cast<PHINode>(Tangents[Phi]);
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      Value *In = Phi->getIncomingValue(K);
      Value *TIn;
      if (isPointerLike(Phi->getType()))
        TIn = shadowOfStoredPointer(In, Phi);
      else
        TIn = tangentOf(In);
      if (!TIn)
        return false;
      T->addIncoming(TIn, cast<BasicBlock>(VMap[Phi->getIncomingBlock(K)]));
    }
  }
  return true;
}

void TangentBuilder::rewriteReturns() {
  if (!Sig.ReturnActive)
    return;
  for (BasicBlock &BB : *Primal) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    auto *CloneRet = cast<ReturnInst>(VMap[Ret]);
    B.SetInsertPoint(CloneRet);
    Value *V = Ret->getReturnValue();
    Value *T = isPointerLike(V->getType()) ? shadowOf(V, Ret) : tangentOf(V);
    if (!T)
      T = Constant::getNullValue(V->getType());
    Value *Pair = PoisonValue::get(NewF->getReturnType());
    Pair = B.CreateInsertValue(Pair, cloneOf(V), 0);
    Pair = B.CreateInsertValue(Pair, T, 1);
    B.CreateRet(Pair);
    CloneRet->eraseFromParent();
  }
}

} // namespace ad
