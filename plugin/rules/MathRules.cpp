//===- MathRules.cpp - The table of math derivative rules -------------------===//
//
// Each partial is written with IRBuilder on the primal operands (x = argument
// 0, y = argument 1 or the result r). Types are generic: the same row serves
// float, double, long double and fixed vectors of them.
//
//===----------------------------------------------------------------------===//
#include "rules/MathRules.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include <cmath>

using namespace llvm;

namespace ad {
namespace {

using PartialFn = Value *(*)(IRBuilderBase &, unsigned, PrimalAccessor, Type *);

Value *fconst(Value *Like, double C) {
  return ConstantFP::get(Like->getType(), C);
}
Value *unary(IRBuilderBase &B, Intrinsic::ID ID, Value *X) {
  return B.CreateUnaryIntrinsic(ID, X);
}
/// Calls the libm function \p Base (suffixed f or l by the operand type) on a
/// scalar; vectors are handled lane by lane.
Value *libm(IRBuilderBase &B, StringRef Base, Value *X) {
  Type *T = X->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Value *R = PoisonValue::get(VT);
    for (unsigned I = 0, E = VT->getNumElements(); I < E; ++I)
      R = B.CreateInsertElement(R, libm(B, Base, B.CreateExtractElement(X, I)),
                                I);
    return R;
  }
  std::string Name = Base.str();
  if (T->isFloatTy())
    Name += 'f';
  else if (T->isX86_FP80Ty() || T->isFP128Ty())
    Name += 'l';
  Module *M = B.GetInsertBlock()->getModule();
  FunctionCallee F = M->getOrInsertFunction(Name, T, T);
  return B.CreateCall(F, {X});
}
Value *square(IRBuilderBase &B, Value *X) { return B.CreateFMul(X, X); }
Value *recip(IRBuilderBase &B, Value *X) {
  return B.CreateFDiv(fconst(X, 1.0), X);
}
/// 1 where Cond holds, else 0, in X's type.
Value *indicator(IRBuilderBase &B, Value *Cond, Value *X) {
  return B.CreateSelect(Cond, fconst(X, 1.0), fconst(X, 0.0));
}

// --- Arithmetic instructions -------------------------------------------------
Value *dFAdd(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  return ConstantFP::get(Ty, 1.0);
}
Value *dFSub(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  return ConstantFP::get(Ty, I == 0 ? 1.0 : -1.0);
}
Value *dFMul(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  return P(1 - I);
}
Value *dFDiv(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  if (I == 0)
    return recip(B, P(1));
  // d(a/b)/db = -a/b^2 = -(a/b) (1/b): from the result, which the reverse
  // sweep often has without taping a (a value normalized in place), and
  // 1/b, which the other partial computes too.
  return B.CreateFNeg(B.CreateFMul(P(Result), recip(B, P(1))));
}
Value *dFRem(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  if (I == 0)
    return ConstantFP::get(Ty, 1.0);
  // frem(a, b) = a - b * trunc(a / b)
  return B.CreateFNeg(unary(B, Intrinsic::trunc, B.CreateFDiv(P(0), P(1))));
}
Value *dFNeg(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  return ConstantFP::get(Ty, -1.0);
}

// --- Math functions -----------------------------------------------------------
Value *dSqrt(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return B.CreateFDiv(fconst(P(0), 0.5), P(Result));
}
Value *dSin(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return unary(B, Intrinsic::cos, P(0));
}
Value *dCos(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return B.CreateFNeg(unary(B, Intrinsic::sin, P(0)));
}
Value *dTan(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return B.CreateFAdd(fconst(Y, 1.0), square(B, Y));
}
Value *dExp(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) { return P(Result); }
Value *dExp2(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return B.CreateFMul(Y, fconst(Y, M_LN2));
}
Value *dExp10(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return B.CreateFMul(Y, fconst(Y, M_LN10));
}
Value *dExpm1(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return B.CreateFAdd(Y, fconst(Y, 1.0));
}
Value *dLog(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return recip(B, P(0));
}
Value *dLog2(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, B.CreateFMul(X, fconst(X, M_LN2)));
}
Value *dLog10(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, B.CreateFMul(X, fconst(X, M_LN10)));
}
Value *dLog1p(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, B.CreateFAdd(X, fconst(X, 1.0)));
}
Value *dPow(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  Value *X = P(0), *Y = P(1);
  if (I == 0) {
    // y * x^(y-1)
    Value *Ym1 = B.CreateFSub(Y, fconst(Y, 1.0));
    return B.CreateFMul(
        Y, B.CreateBinaryIntrinsic(Intrinsic::pow, X, Ym1));
  }
  // x^y * log(x); 0 where x^y is 0 (x = 0), where the limit is 0.
  Value *R = P(Result);
  Value *D = B.CreateFMul(R, unary(B, Intrinsic::log, X));
  return B.CreateSelect(B.CreateFCmpOEQ(R, fconst(R, 0.0)), fconst(R, 0.0),
                        D);
}
Value *dPowi(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0), *N = P(1);
  Value *Nm1 = B.CreateSub(N, ConstantInt::get(N->getType(), 1));
  Value *Pw = B.CreateIntrinsic(Intrinsic::powi, {X->getType(), N->getType()},
                                {X, Nm1});
  return B.CreateFMul(B.CreateSIToFP(N, X->getType()), Pw);
}
Value *dFabs(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return B.CreateSelect(B.CreateFCmpOLT(X, fconst(X, 0.0)), fconst(X, -1.0),
                        fconst(X, 1.0));
}
/// min/max select one operand; the partial is 1 for the one selected.
Value *dSelectOne(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  Value *X = P(0), *R = P(Result);
  Value *PickedFirst = B.CreateFCmpOEQ(R, X);
  if (I == 0)
    return indicator(B, PickedFirst, X);
  return indicator(B, B.CreateNot(PickedFirst), X);
}
Value *dCopysign(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  if (I == 1)
    return nullptr;
  Value *X = P(0), *S = P(1);
  Value *One = fconst(X, 1.0);
  return B.CreateFMul(B.CreateBinaryIntrinsic(Intrinsic::copysign, One, X),
                      B.CreateBinaryIntrinsic(Intrinsic::copysign, One, S));
}
Value *dTanh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return B.CreateFSub(fconst(Y, 1.0), square(B, Y));
}
Value *dSinh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return unary(B, Intrinsic::cosh, P(0));
}
Value *dCosh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return unary(B, Intrinsic::sinh, P(0));
}
Value *oneMinusSquareRoot(IRBuilderBase &B, Value *X) {
  return unary(B, Intrinsic::sqrt, B.CreateFSub(fconst(X, 1.0), square(B, X)));
}
Value *dAsin(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return recip(B, oneMinusSquareRoot(B, P(0)));
}
Value *dAcos(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return B.CreateFNeg(recip(B, oneMinusSquareRoot(B, P(0))));
}
Value *dAtan(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, B.CreateFAdd(fconst(X, 1.0), square(B, X)));
}
Value *dAtan2(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  Value *Y = P(0), *X = P(1);
  Value *Den = B.CreateFAdd(square(B, Y), square(B, X));
  if (I == 0)
    return B.CreateFDiv(X, Den);
  return B.CreateFNeg(B.CreateFDiv(Y, Den));
}
Value *dAsinh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, unary(B, Intrinsic::sqrt,
                        B.CreateFAdd(square(B, X), fconst(X, 1.0))));
}
Value *dAcosh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, unary(B, Intrinsic::sqrt,
                        B.CreateFSub(square(B, X), fconst(X, 1.0))));
}
Value *dAtanh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(B, B.CreateFSub(fconst(X, 1.0), square(B, X)));
}
/// fdim(a, b) = max(a - b, 0).
Value *dFdim(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  Value *Positive = B.CreateFCmpOGT(P(0), P(1));
  return B.CreateSelect(Positive, ConstantFP::get(Ty, I == 0 ? 1.0 : -1.0),
                        ConstantFP::get(Ty, 0.0));
}
/// ldexp(x, n) = x * 2^n: the partial is 2^n = ldexp(1, n).
Value *dLdexp(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *N = P(1);
  return B.CreateIntrinsic(Intrinsic::ldexp, {Ty, N->getType()},
                           {ConstantFP::get(Ty, 1.0), N});
}
/// frexp(x, &e) = x * 2^-e, e written through the pointer (an integer: no
/// derivative): the partial is 2^-e, e recomputed from x by llvm.frexp so
/// that nothing is read back from memory the program may have reused.
Value *dFrexp(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Parts =
      B.CreateIntrinsic(Intrinsic::frexp, {Ty, B.getInt32Ty()}, {P(0)});
  Value *Exp = B.CreateExtractValue(Parts, 1);
  return B.CreateIntrinsic(Intrinsic::ldexp, {Ty, B.getInt32Ty()},
                           {ConstantFP::get(Ty, 1.0), B.CreateNeg(Exp)});
}
Value *dErf(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  Value *E = unary(B, Intrinsic::exp, B.CreateFNeg(square(B, X)));
  return B.CreateFMul(fconst(X, M_2_SQRTPI), E);
}
Value *dErfc(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  return B.CreateFNeg(dErf(B, I, P, Ty));
}
Value *dHypot(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  return B.CreateFDiv(P(I), P(Result));
}
Value *dCbrt(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return recip(B, B.CreateFMul(fconst(Y, 3.0), square(B, Y)));
}
Value *dFma(IRBuilderBase &B, unsigned I, PrimalAccessor P, Type *Ty) {
  if (I == 2)
    return ConstantFP::get(Ty, 1.0);
  return P(1 - I);
}
Value *dZero(IRBuilderBase &, unsigned, PrimalAccessor, Type *) {
  return nullptr;
}

struct NamedRule {
  const char *Name;
  unsigned NumDiffArgs;
  PartialFn Partial;
  Intrinsic::ID Intrinsic; // not_intrinsic where only libm has it
};

// The table. Libm names are the double variants; f and l suffixes are added.
const NamedRule Rules[] = {
    {"sqrt", 1, dSqrt, Intrinsic::sqrt},
    {"sin", 1, dSin, Intrinsic::sin},
    {"cos", 1, dCos, Intrinsic::cos},
    {"tan", 1, dTan, Intrinsic::tan},
    {"exp", 1, dExp, Intrinsic::exp},
    {"exp2", 1, dExp2, Intrinsic::exp2},
    {"exp10", 1, dExp10, Intrinsic::exp10},
    {"expm1", 1, dExpm1, Intrinsic::not_intrinsic},
    {"log", 1, dLog, Intrinsic::log},
    {"log2", 1, dLog2, Intrinsic::log2},
    {"log10", 1, dLog10, Intrinsic::log10},
    {"log1p", 1, dLog1p, Intrinsic::not_intrinsic},
    {"pow", 2, dPow, Intrinsic::pow},
    {"__powidf2", 1, dPowi, Intrinsic::powi},
    {"fabs", 1, dFabs, Intrinsic::fabs},
    {"fmin", 2, dSelectOne, Intrinsic::minnum},
    {"fmax", 2, dSelectOne, Intrinsic::maxnum},
    {"tanh", 1, dTanh, Intrinsic::tanh},
    {"sinh", 1, dSinh, Intrinsic::sinh},
    {"cosh", 1, dCosh, Intrinsic::cosh},
    {"asin", 1, dAsin, Intrinsic::asin},
    {"acos", 1, dAcos, Intrinsic::acos},
    {"atan", 1, dAtan, Intrinsic::atan},
    {"atan2", 2, dAtan2, Intrinsic::atan2},
    {"asinh", 1, dAsinh, Intrinsic::not_intrinsic},
    {"acosh", 1, dAcosh, Intrinsic::not_intrinsic},
    {"atanh", 1, dAtanh, Intrinsic::not_intrinsic},
    {"fdim", 2, dFdim, Intrinsic::not_intrinsic},
    {"ldexp", 1, dLdexp, Intrinsic::ldexp},
    {"scalbn", 1, dLdexp, Intrinsic::not_intrinsic},
    {"frexp", 1, dFrexp, Intrinsic::not_intrinsic},
    {"erf", 1, dErf, Intrinsic::not_intrinsic},
    {"erfc", 1, dErfc, Intrinsic::not_intrinsic},
    {"hypot", 2, dHypot, Intrinsic::not_intrinsic},
    {"cbrt", 1, dCbrt, Intrinsic::not_intrinsic},
    {"copysign", 2, dCopysign, Intrinsic::copysign},
    {"fmod", 2, dFRem, Intrinsic::not_intrinsic},
    {"fma", 3, dFma, Intrinsic::fma},
    {"floor", 1, dZero, Intrinsic::floor},
    {"ceil", 1, dZero, Intrinsic::ceil},
    {"round", 1, dZero, Intrinsic::round},
    {"trunc", 1, dZero, Intrinsic::trunc},
    {"rint", 1, dZero, Intrinsic::rint},
    {"nearbyint", 1, dZero, Intrinsic::nearbyint},
    {"roundeven", 1, dZero, Intrinsic::roundeven},
    // Intrinsic-only rows.
    {"llvm.fmuladd", 3, dFma, Intrinsic::fmuladd},
    {"llvm.minimum", 2, dSelectOne, Intrinsic::minimum},
    {"llvm.maximum", 2, dSelectOne, Intrinsic::maximum},
    {"llvm.minimumnum", 2, dSelectOne, Intrinsic::minimumnum},
    {"llvm.maximumnum", 2, dSelectOne, Intrinsic::maximumnum},
};

const MathRule InstructionRules[] = {
    {"fadd", 2, dFAdd}, {"fsub", 2, dFSub}, {"fmul", 2, dFMul},
    {"fdiv", 2, dFDiv}, {"frem", 2, dFRem}, {"fneg", 1, dFNeg},
};

struct RuleIndex {
  StringMap<MathRule> ByName;
  DenseMap<unsigned, MathRule> ByIntrinsic;

  RuleIndex() {
    for (const NamedRule &R : Rules) {
      MathRule Rule{R.Name, R.NumDiffArgs, R.Partial};
      StringRef Name(R.Name);
      if (!Name.starts_with("llvm.") && !Name.starts_with("__")) {
        ByName[Name] = Rule;
        ByName[(Name + "f").str()] = Rule;
        ByName[(Name + "l").str()] = Rule;
      }
      if (R.Intrinsic != Intrinsic::not_intrinsic)
        ByIntrinsic[R.Intrinsic] = Rule;
    }
    // Compiler-rt's powi helpers.
    ByName["__powidf2"] = ByIntrinsic[Intrinsic::powi];
    ByName["__powisf2"] = ByIntrinsic[Intrinsic::powi];
  }
};

const RuleIndex &index() {
  static const RuleIndex Index;
  return Index;
}

} // namespace

const MathRule *lookupMathRule(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F)
    return nullptr;
  const RuleIndex &Idx = index();
  if (Intrinsic::ID ID = F->getIntrinsicID()) {
    auto It = Idx.ByIntrinsic.find(ID);
    return It == Idx.ByIntrinsic.end() ? nullptr : &It->second;
  }
  // A libm function only if its type is the expected all-FP one; a user
  // function that happens to be called "sin" with another type is not.
  auto It = Idx.ByName.find(F->getName());
  if (It == Idx.ByName.end() || !F->getReturnType()->isFloatingPointTy())
    return nullptr;
  return &It->second;
}

const MathRule *lookupInstructionRule(unsigned Opcode) {
  switch (Opcode) {
  case Instruction::FAdd: return &InstructionRules[0];
  case Instruction::FSub: return &InstructionRules[1];
  case Instruction::FMul: return &InstructionRules[2];
  case Instruction::FDiv: return &InstructionRules[3];
  case Instruction::FRem: return &InstructionRules[4];
  case Instruction::FNeg: return &InstructionRules[5];
  default: return nullptr;
  }
}

} // namespace ad
