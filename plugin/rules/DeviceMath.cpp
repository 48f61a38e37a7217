//===- DeviceMath.cpp - Math calls that a derivative may emit on any target
//-===//
#include "rules/DeviceMath.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace ad {

bool isLibdeviceTarget(const Module &M) {
  return M.getTargetTriple().isNVPTX();
}

std::string libdeviceName(StringRef Base, Type *Ty) {
  std::string Name = ("__nv_" + Base).str();
  if (Ty->getScalarType()->isFloatTy())
    Name += 'f';
  return Name;
}

StringRef libdeviceBaseOf(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sin:
    return "sin";
  case Intrinsic::cos:
    return "cos";
  case Intrinsic::tan:
    return "tan";
  case Intrinsic::sinh:
    return "sinh";
  case Intrinsic::cosh:
    return "cosh";
  case Intrinsic::tanh:
    return "tanh";
  case Intrinsic::asin:
    return "asin";
  case Intrinsic::acos:
    return "acos";
  case Intrinsic::atan:
    return "atan";
  case Intrinsic::atan2:
    return "atan2";
  case Intrinsic::exp:
    return "exp";
  case Intrinsic::exp2:
    return "exp2";
  case Intrinsic::exp10:
    return "exp10";
  case Intrinsic::log:
    return "log";
  case Intrinsic::log2:
    return "log2";
  case Intrinsic::log10:
    return "log10";
  case Intrinsic::pow:
    return "pow";
  case Intrinsic::powi:
    return "powi";
  case Intrinsic::ldexp:
    return "ldexp";
  default:
    return "";
  }
}

/// Calls \p Name on scalars, lane by lane where the arguments are vectors
/// (the first argument's type is the result's).
static Value *callByLanes(IRBuilderBase &B, StringRef Name,
                          ArrayRef<Value *> Args) {
  Type *T = Args[0]->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Value *R = PoisonValue::get(VT);
    for (unsigned I = 0, E = VT->getNumElements(); I < E; ++I) {
      SmallVector<Value *, 3> Lane;
      for (Value *A : Args)
        Lane.push_back(A->getType()->isVectorTy() ? B.CreateExtractElement(A, I)
                                                  : A);
      R = B.CreateInsertElement(R, callByLanes(B, Name, Lane), I);
    }
    return R;
  }
  SmallVector<Type *, 3> Params;
  for (Value *A : Args)
    Params.push_back(A->getType());
  Module *M = B.GetInsertBlock()->getModule();
  FunctionCallee F =
      M->getOrInsertFunction(Name, FunctionType::get(T, Params, false));
  return B.CreateCall(F, Args);
}

Value *emitMathIntrinsic(IRBuilderBase &B, Intrinsic::ID ID,
                         ArrayRef<Value *> Args) {
  Module *M = B.GetInsertBlock()->getModule();
  Type *Ty = Args[0]->getType();
  StringRef Base = libdeviceBaseOf(ID);
  if (isLibdeviceTarget(*M) && !Base.empty())
    return callByLanes(B, libdeviceName(Base, Ty), Args);
  if (ID == Intrinsic::powi || ID == Intrinsic::ldexp)
    return B.CreateIntrinsic(ID, {Ty, Args[1]->getType()}, Args);
  return B.CreateIntrinsic(ID, {Ty}, Args);
}

Value *emitLibmCall(IRBuilderBase &B, StringRef Base, Value *X) {
  Module *M = B.GetInsertBlock()->getModule();
  Type *T = X->getType();
  if (isLibdeviceTarget(*M))
    return callByLanes(B, libdeviceName(Base, T), {X});
  std::string Name = Base.str();
  Type *S = T->getScalarType();
  if (S->isFloatTy())
    Name += 'f';
  else if (S->isX86_FP80Ty() || S->isFP128Ty())
    Name += 'l';
  return callByLanes(B, Name, {X});
}

} // namespace ad
