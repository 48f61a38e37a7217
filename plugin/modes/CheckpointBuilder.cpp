//===- CheckpointBuilder.cpp - The split derivative of a checkpointed loop ===//
//
// See CheckpointBuilder.h. The layout of the schedule's loop descriptor
// mirrors __ad_ckpt_loop in runtime/checkpoint/CheckpointSchedule.h.
//
//===----------------------------------------------------------------------===//
#include "modes/CheckpointBuilder.h"
#include "runtime/CheckpointRuntime.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace {

cl::opt<std::string> TapeBudget(
    "ad-tape-budget", cl::init("1G"), cl::value_desc("size"),
    cl::desc("Bytes a checkpointed loop's gradient may keep, unless "
             "AD_TAPE_BUDGET says otherwise when it runs: bytes, or with a "
             "K, M or G suffix (default 1G)"));

} // namespace

namespace ad {

uint64_t defaultTapeBudget() {
  // As AD_TAPE_BUDGET is read: digits, then K, M or G (powers of 1024),
  // optionally followed by B or iB.
  StringRef Text = StringRef(TapeBudget).trim();
  uint64_t Digits = 0;
  StringRef Rest = Text;
  if (Rest.consumeInteger(10, Digits))
    report_fatal_error("-ad-tape-budget: '" + Text + "' is not a size");
  uint64_t Scale = 1;
  if (!Rest.empty() && StringRef("kKmMgG").contains(Rest.front())) {
    Scale =
        uint64_t(1) << (10 * (1 + StringRef("kKmMgG").find(Rest.front()) / 2));
    Rest = Rest.drop_front();
  }
  if (!Rest.empty() && Rest != "B" && Rest != "iB")
    report_fatal_error("-ad-tape-budget: '" + Text + "' is not a size");
  return Digits * Scale;
}

namespace {

enum EnvField : unsigned {
  Descriptor,
  Tape,
  Handle,
  Carried,
  CarriedShadow,
  Inputs,
  InputShadows,
  Sums
};

class CheckpointBuilder {
public:
  CheckpointBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                    const CheckpointedLoop &CL)
      : Ctx(Ctx), Sig(Sig), CL(CL), M(Ctx.M), C(M.getContext()),
        I64(Type::getInt64Ty(C)), Ptr(PointerType::getUnqual(C)) {}

  bool build(Function &Augmented, Function &Adjoint);

private:
  unsigned inputParam(unsigned J) const { return 1 + CL.FirstValues + J; }
  unsigned inputCount() const {
    return CL.Loop->arg_size() - 1 - CL.FirstValues;
  }
  /// The step's parameter K: the carried struct, or input J.
  int stepInput(unsigned K) const {
    return K == CL.CarriedArg ? -1 : int(K < CL.CarriedArg ? K : K - 1);
  }
  Value *field(IRBuilderBase &B, Value *Env, unsigned F, int K = -1) {
    Value *P = B.CreateStructGEP(EnvTy, Env, F);
    if (K < 0)
      return P;
    return B.CreateStructGEP(EnvTy->getElementType(F), P, K);
  }
  /// The step's primal arguments, from the environment.
  SmallVector<Value *, 8> stepArgs(IRBuilderBase &B, Value *Env);
  Function *newCallback(StringRef Suffix, FunctionType *Ty);
  Function *advance();
  Function *reverse(const SplitDerivative &StepD,
                    const DerivativeSignature &StepSig);
  Function *ranges();

  ADContext &Ctx;
  const DerivativeSignature &Sig;
  const CheckpointedLoop &CL;
  Module &M;
  LLVMContext &C;
  Type *I64, *Ptr;
  StructType *EnvTy = nullptr, *DescTy = nullptr;
  /// Input J's field among the shadows, and among the sums.
  SmallVector<int, 8> ShadowField, SumField;
};

Function *CheckpointBuilder::newCallback(StringRef Suffix, FunctionType *Ty) {
  Function *F = Function::Create(Ty, GlobalValue::InternalLinkage,
                                 CL.Loop->getName() + Suffix, M);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

SmallVector<Value *, 8> CheckpointBuilder::stepArgs(IRBuilderBase &B,
                                                    Value *Env) {
  SmallVector<Value *, 8> Args;
  for (unsigned K = 0; K < CL.Step->arg_size(); ++K) {
    int J = stepInput(K);
    if (J < 0) {
      Args.push_back(field(B, Env, Carried));
      continue;
    }
    Type *T = CL.Step->getArg(K)->getType();
    Args.push_back(B.CreateLoad(T, field(B, Env, Inputs, J)));
  }
  return Args;
}

Function *CheckpointBuilder::advance() {
  Function *F = newCallback(".advance", FunctionType::get(I64, {Ptr}, false));
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *R = B.CreateCall(CL.Step, stepArgs(B, F->getArg(0)));
  Value *On = B.CreateICmpEQ(R, ConstantInt::get(R->getType(), CL.GoOn));
  B.CreateRet(B.CreateZExt(On, I64));
  return F;
}

Function *CheckpointBuilder::reverse(const SplitDerivative &StepD,
                                     const DerivativeSignature &StepSig) {
  Function *F = newCallback(
      ".reverse", FunctionType::get(Type::getVoidTy(C), {Ptr}, false));
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Env = F->getArg(0);
  SmallVector<Value *, 12> Args = stepArgs(B, Env);
  for (unsigned K = 0; K < CL.Step->arg_size(); ++K) {
    if (StepSig.Args[K] != Activity::Shadowed)
      continue;
    int J = stepInput(K);
    Args.push_back(
        J < 0 ? field(B, Env, CarriedShadow)
              : B.CreateLoad(Ptr, field(B, Env, InputShadows, ShadowField[J])));
  }
  Value *TapePtr = B.CreateLoad(Ptr, field(B, Env, Tape));
  Args.push_back(TapePtr);
  B.CreateCall(StepD.Augmented, Args);
  Value *Adjoints = B.CreateCall(StepD.Adjoint, {TapePtr});
  unsigned Index = 0;
  for (unsigned K = 0; K < CL.Step->arg_size(); ++K) {
    if (StepSig.Args[K] != Activity::Active)
      continue;
    int J = stepInput(K);
    Value *Sum = field(B, Env, Sums, SumField[J]);
    Type *T = CL.Step->getArg(K)->getType();
    Value *D = B.CreateExtractValue(Adjoints, Index++);
    B.CreateStore(B.CreateFAdd(B.CreateLoad(T, Sum), D), Sum);
  }
  B.CreateRetVoid();
  return F;
}

Function *CheckpointBuilder::ranges() {
  Function *F =
      newCallback(".ranges", FunctionType::get(I64, {Ptr, I64, Ptr}, false));
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Env = F->getArg(0);
  SmallVector<Value *, 12> Args{field(B, Env, Carried)};
  for (unsigned J = 0; J < inputCount(); ++J)
    Args.push_back(B.CreateLoad(CL.Loop->getArg(inputParam(J))->getType(),
                                field(B, Env, Inputs, J)));
  Args.push_back(F->getArg(1));
  Args.push_back(F->getArg(2));
  B.CreateRet(B.CreateCall(CL.Ranges, Args));
  return F;
}

bool CheckpointBuilder::build(Function &Augmented, Function &Adjoint) {
  // The step's signature: its carried struct shadowed, each input as the
  // loop's.
  DerivativeSignature StepSig;
  StepSig.Primal = CL.Step;
  StepSig.Kind = DerivativeKind::Split;
  StepSig.InTeam = Sig.InTeam;
  for (unsigned K = 0; K < CL.Step->arg_size(); ++K) {
    int J = stepInput(K);
    StepSig.Args.push_back(J < 0 ? Activity::Shadowed
                                 : Sig.Args[inputParam(J)]);
  }
  // Sums only of floating-point scalars and vectors.
  for (auto [K, A] : enumerate(StepSig.Args))
    if (A == Activity::Active &&
        !CL.Step->getArg(K)->getType()->isFPOrFPVectorTy()) {
      Ctx.Diag.error(*CL.Loop,
                     "a checkpointed loop's input of this type cannot be "
                     "differentiated",
                     "pass it through memory, or turn checkpointing off with "
                     "-mllvm -ad-checkpoint=false");
      return false;
    }
  SplitDerivative StepD = Ctx.Cache->split(StepSig);
  if (!StepD)
    return false;

  // The environment.
  SmallVector<Type *, 8> InputTys, ShadowTys, SumTys;
  for (unsigned J = 0; J < inputCount(); ++J) {
    Type *T = CL.Loop->getArg(inputParam(J))->getType();
    InputTys.push_back(T);
    Activity A = Sig.Args[inputParam(J)];
    ShadowField.push_back(A == Activity::Shadowed ? int(ShadowTys.size()) : -1);
    if (A == Activity::Shadowed)
      ShadowTys.push_back(T);
    SumField.push_back(A == Activity::Active ? int(SumTys.size()) : -1);
    if (A == Activity::Active)
      SumTys.push_back(T);
  }
  DescTy = StructType::get(C, {Ptr, Ptr, Ptr, Ptr, Ptr, I64, I64, I64});
  EnvTy = StructType::get(C, {DescTy, Ptr, Ptr, CL.Carried, CL.Carried,
                              StructType::get(C, InputTys),
                              StructType::get(C, ShadowTys),
                              StructType::get(C, SumTys)});
  CheckpointScheduler Scheduler = linkCheckpointScheduler(M);
  Function *Advance = advance(), *Reverse = reverse(StepD, StepSig),
           *Ranges = ranges();

  // Augmented: (loop params..., shadows..., tape).
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", &Augmented));
    const DataLayout &DL = M.getDataLayout();
    Value *Env =
        B.CreateCall(Ctx.Runtime.calloc(),
                     {ConstantInt::get(I64, 1),
                      ConstantInt::get(I64, DL.getTypeAllocSize(EnvTy))},
                     "env");
    Value *Name = B.CreateGlobalString(CL.Name, CL.Loop->getName() + ".name");
    Value *Fields[] = {Name,
                       Env,
                       Advance,
                       Reverse,
                       Ranges,
                       ConstantInt::get(I64, CL.MaxRanges),
                       Augmented.getArg(0),
                       ConstantInt::get(I64, defaultTapeBudget())};
    for (auto [K, V] : enumerate(Fields))
      B.CreateStore(V, field(B, Env, Descriptor, K));
    Value *TapeArg = Augmented.getArg(Augmented.arg_size() - 1);
    B.CreateStore(TapeArg, field(B, Env, Tape));
    for (unsigned K = 0; K < CL.FirstValues; ++K)
      B.CreateStore(Augmented.getArg(1 + K), field(B, Env, Carried, K));
    unsigned ShadowArg = CL.Loop->arg_size();
    for (unsigned J = 0; J < inputCount(); ++J) {
      B.CreateStore(Augmented.getArg(inputParam(J)), field(B, Env, Inputs, J));
      if (ShadowField[J] >= 0)
        B.CreateStore(Augmented.getArg(ShadowArg++),
                      field(B, Env, InputShadows, ShadowField[J]));
    }
    // Shadowed first values (none: they are scalars) would come first.
    for (unsigned K = 0; K <= CL.FirstValues; ++K)
      if (Sig.Args[K] == Activity::Shadowed) {
        Ctx.Diag.error(*CL.Loop, "a checkpointed loop carries a pointer",
                       "turn checkpointing off with -mllvm "
                       "-ad-checkpoint=false");
        return false;
      }
    Value *Started =
        B.CreateCall(Scheduler.Forward, {field(B, Env, Descriptor)});
    B.CreateStore(Started, field(B, Env, Handle));
    Value *Record = B.CreateCall(Ctx.Runtime.tapePush(),
                                 {TapeArg, ConstantInt::get(I64, 8)});
    B.CreateStore(Env, Record);
    Type *RetTy = Augmented.getReturnType();
    if (RetTy->isVoidTy()) {
      B.CreateRetVoid();
    } else {
      // The values used after the loop, as the loop left them.
      Value *Out = PoisonValue::get(RetTy);
      for (auto [J, K] : enumerate(CL.OutFields))
        Out = B.CreateInsertValue(Out,
                                  B.CreateLoad(CL.Carried->getElementType(K),
                                               field(B, Env, Carried, K)),
                                  J);
      B.CreateRet(Out);
    }
  }

  // Adjoint: ([return adjoint], tape) -> adjoints of the active arguments.
  {
    IRBuilder<> B(BasicBlock::Create(C, "entry", &Adjoint));
    Value *TapeArg = Adjoint.getArg(Adjoint.arg_size() - 1);
    Value *Record = B.CreateCall(Ctx.Runtime.tapePop(),
                                 {TapeArg, ConstantInt::get(I64, 8)});
    Value *Env = B.CreateLoad(Ptr, Record, "env");
    // Steps run again record on the tape as it is now.
    B.CreateStore(TapeArg, field(B, Env, Tape));
    B.CreateCall(Scheduler.Reverse, {B.CreateLoad(Ptr, field(B, Env, Handle))});
    Type *RetTy = Adjoint.getReturnType();
    Value *Result = PoisonValue::get(RetTy);
    unsigned Index = 0;
    for (unsigned K = 1; K < CL.Loop->arg_size(); ++K) {
      if (Sig.Args[K] != Activity::Active)
        continue;
      Type *T = CL.Loop->getArg(K)->getType();
      Value *D = K <= CL.FirstValues
                     ? B.CreateLoad(T, field(B, Env, CarriedShadow, K - 1))
                     : B.CreateLoad(T, field(B, Env, Sums,
                                             SumField[K - 1 - CL.FirstValues]));
      Result = B.CreateInsertValue(Result, D, Index++);
    }
    B.CreateCall(Ctx.Runtime.free(), {Env});
    if (RetTy->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Result);
  }
  return true;
}

} // namespace

bool buildCheckpointedLoop(ADContext &Ctx, const DerivativeSignature &Sig,
                           const CheckpointedLoop &Loop, Function &Augmented,
                           Function &Adjoint) {
  return CheckpointBuilder(Ctx, Sig, Loop).build(Augmented, Adjoint);
}

} // namespace ad
