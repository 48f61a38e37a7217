//===- MathRules.cpp - The table of math derivative rules
//-------------------===//
//
// Each partial is written with IRBuilder on the primal operands (x = argument
// 0, y = argument 1 or the result r). Types are generic: the same row serves
// float, double, long double and fixed vectors of them.
//
//===----------------------------------------------------------------------===//
#include "rules/MathRules.h"
#include "rules/DeviceMath.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include <cmath>
#include <tuple>

using namespace llvm;

namespace ad {
namespace {

enum class StrongZero { Off, Rows, All };

cl::opt<StrongZero> StrongZeroMode(
    "ad-strong-zero",
    cl::desc("Which terms partial * derivative give an exact 0 when a factor "
             "is 0 though the other is infinite or NaN"),
    cl::values(clEnumValN(StrongZero::Rows, "rows",
                          "the terms of operations whose partials may be "
                          "non-finite at finite arguments, and the unchosen "
                          "argument of fmin/fmax/fdim (default)"),
               clEnumValN(StrongZero::All, "all",
                          "also every term whose partial is an operand (fmul, "
                          "fma): exact for infinite arguments too"),
               clEnumValN(StrongZero::Off, "off", "no term")),
    cl::init(StrongZero::Rows));

using PartialFn = Value *(*)(IRBuilderBase &, unsigned, PrimalAccessor, Type *);

Value *fconst(Value *Like, double C) {
  return ConstantFP::get(Like->getType(), C);
}
/// A math intrinsic of one operand, or its libdevice call on a GPU.
Value *unary(IRBuilderBase &B, Intrinsic::ID ID, Value *X) {
  return emitMathIntrinsic(B, ID, {X});
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

// --- Math functions
// -----------------------------------------------------------
Value *dSqrt(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return B.CreateFDiv(ConstantFP::get(Ty, 0.5), P(Result));
}
Value *dSin(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return P.computed(B, Intrinsic::cos);
}
Value *dCos(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return B.CreateFNeg(P.computed(B, Intrinsic::sin));
}
Value *dTan(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Y = P(Result);
  return B.CreateFAdd(fconst(Y, 1.0), square(B, Y));
}
Value *dExp(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return P(Result);
}
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
    return B.CreateFMul(Y, emitMathIntrinsic(B, Intrinsic::pow, {X, Ym1}));
  }
  // x^y * log(x); 0 where x^y is 0 (x = 0), where the limit is 0.
  Value *R = P(Result);
  Value *D = B.CreateFMul(R, unary(B, Intrinsic::log, X));
  return B.CreateSelect(B.CreateFCmpOEQ(R, fconst(R, 0.0)), fconst(R, 0.0), D);
}
Value *dPowi(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0), *N = P(1);
  Value *Nm1 = B.CreateSub(N, ConstantInt::get(N->getType(), 1));
  Value *Pw = emitMathIntrinsic(B, Intrinsic::powi, {X, Nm1});
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
  return P.computed(B, Intrinsic::cosh);
}
Value *dCosh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return P.computed(B, Intrinsic::sinh);
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
  return recip(
      B, unary(B, Intrinsic::sqrt, B.CreateFAdd(square(B, X), fconst(X, 1.0))));
}
Value *dAcosh(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *X = P(0);
  return recip(
      B, unary(B, Intrinsic::sqrt, B.CreateFSub(square(B, X), fconst(X, 1.0))));
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
  return emitMathIntrinsic(B, Intrinsic::ldexp, {ConstantFP::get(Ty, 1.0), N});
}
/// frexp(x, &e) = x * 2^-e, e written through the pointer (an integer: no
/// derivative): the partial is 2^-e, e recomputed from x by llvm.frexp so
/// that nothing is read back from memory the program may have reused.
Value *dFrexp(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *Parts =
      B.CreateIntrinsic(Intrinsic::frexp, {Ty, B.getInt32Ty()}, {P(0)});
  Value *Exp = B.CreateExtractValue(Parts, 1);
  return emitMathIntrinsic(B, Intrinsic::ldexp,
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
/// rsqrt(x) = x^(-1/2): -1/2 r^3 from the result.
Value *dRsqrt(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  Value *R = P(Result);
  return B.CreateFMul(fconst(R, -0.5), B.CreateFMul(R, square(B, R)));
}
/// rcp(x) = 1/x: -r^2 from the result.
Value *dRcp(IRBuilderBase &B, unsigned, PrimalAccessor P, Type *Ty) {
  return B.CreateFNeg(square(B, P(Result)));
}
Value *dZero(IRBuilderBase &, unsigned, PrimalAccessor, Type *) {
  return nullptr;
}

struct NamedRule {
  const char *Name;
  unsigned NumDiffArgs;
  PrimalReads Reads;
  PartialFn Partial;
  Intrinsic::ID Intrinsic; // not_intrinsic where only libm has it
  ZeroGuard Guard;
};

// Short names for the guard column of the table (see ZeroGuard). A row is
// Singular when some finite argument makes a partial infinite or NaN; the
// reason is noted beside each such row. tan (|tan x| < 2^53 for every finite
// x), asinh (1/sqrt(x^2+1) tends to 0), erf and the hyperbolic tangent have
// bounded partials and are not.
constexpr ZeroGuard Regular = ZeroGuard::None;
constexpr ZeroGuard Singular = ZeroGuard::Derivative;
constexpr ZeroGuard Chooses = ZeroGuard::Partial;

// The table. Libm names are the double variants; f and l suffixes are added.
const NamedRule Rules[] = {
    {"sqrt", 1, ReadsResult, dSqrt, Intrinsic::sqrt, Singular}, // 0
    {"sin", 1, ReadsArg0, dSin, Intrinsic::sin, Regular},
    {"cos", 1, ReadsArg0, dCos, Intrinsic::cos, Regular},
    {"tan", 1, ReadsResult, dTan, Intrinsic::tan, Regular},
    {"exp", 1, ReadsResult, dExp, Intrinsic::exp, Singular},       // overflow
    {"exp2", 1, ReadsResult, dExp2, Intrinsic::exp2, Singular},    // overflow
    {"exp10", 1, ReadsResult, dExp10, Intrinsic::exp10, Singular}, // overflow
    {"expm1", 1, ReadsResult, dExpm1, Intrinsic::not_intrinsic,
     Singular},                                                  // overflow
    {"log", 1, ReadsArg0, dLog, Intrinsic::log, Singular},       // 0
    {"log2", 1, ReadsArg0, dLog2, Intrinsic::log2, Singular},    // 0
    {"log10", 1, ReadsArg0, dLog10, Intrinsic::log10, Singular}, // 0
    {"log1p", 1, ReadsArg0, dLog1p, Intrinsic::not_intrinsic, Singular}, // -1
    {"pow", 2, ReadsArgs01 | ReadsResult, dPow, Intrinsic::pow,
     Singular}, // 0^y, y < 1; log x, x <= 0
    {"__powidf2", 1, ReadsArgs01, dPowi, Intrinsic::powi,
     Singular}, // 0^n, n <= 0
    {"fabs", 1, ReadsArg0, dFabs, Intrinsic::fabs, Regular},
    {"fmin", 2, ReadsArg0 | ReadsResult, dSelectOne, Intrinsic::minnum,
     Chooses},
    {"fmax", 2, ReadsArg0 | ReadsResult, dSelectOne, Intrinsic::maxnum,
     Chooses},
    {"tanh", 1, ReadsResult, dTanh, Intrinsic::tanh, Regular},
    {"sinh", 1, ReadsArg0, dSinh, Intrinsic::sinh, Singular}, // overflow
    {"cosh", 1, ReadsArg0, dCosh, Intrinsic::cosh, Singular}, // overflow
    {"asin", 1, ReadsArg0, dAsin, Intrinsic::asin, Singular}, // +-1
    {"acos", 1, ReadsArg0, dAcos, Intrinsic::acos, Singular}, // +-1
    {"atan", 1, ReadsArg0, dAtan, Intrinsic::atan, Regular},
    {"atan2", 2, ReadsArgs01, dAtan2, Intrinsic::atan2, Singular}, // (0, 0)
    {"asinh", 1, ReadsArg0, dAsinh, Intrinsic::not_intrinsic, Regular},
    {"acosh", 1, ReadsArg0, dAcosh, Intrinsic::not_intrinsic, Singular}, // 1
    {"atanh", 1, ReadsArg0, dAtanh, Intrinsic::not_intrinsic, Singular}, // +-1
    {"fdim", 2, ReadsArgs01, dFdim, Intrinsic::not_intrinsic, Chooses},
    {"ldexp", 1, ReadsArg1, dLdexp, Intrinsic::ldexp,
     Singular}, // 2^n overflows
    {"scalbn", 1, ReadsArg1, dLdexp, Intrinsic::not_intrinsic,
     Singular}, // 2^n overflows
    {"frexp", 1, ReadsArg0, dFrexp, Intrinsic::not_intrinsic, Regular},
    {"erf", 1, ReadsArg0, dErf, Intrinsic::not_intrinsic, Regular},
    {"erfc", 1, ReadsArg0, dErfc, Intrinsic::not_intrinsic, Regular},
    {"hypot", 2, ReadsArgs01 | ReadsResult, dHypot, Intrinsic::not_intrinsic,
     Singular}, // (0, 0)
    {"cbrt", 1, ReadsResult, dCbrt, Intrinsic::not_intrinsic, Singular}, // 0
    {"copysign", 2, ReadsArgs01, dCopysign, Intrinsic::copysign, Regular},
    {"fmod", 2, ReadsArgs01, dFRem, Intrinsic::not_intrinsic,
     Singular}, // b = 0
    {"fma", 3, ReadsArgs01, dFma, Intrinsic::fma, Regular},
    {"floor", 1, ReadsNothing, dZero, Intrinsic::floor, Regular},
    {"ceil", 1, ReadsNothing, dZero, Intrinsic::ceil, Regular},
    {"round", 1, ReadsNothing, dZero, Intrinsic::round, Regular},
    {"trunc", 1, ReadsNothing, dZero, Intrinsic::trunc, Regular},
    {"rint", 1, ReadsNothing, dZero, Intrinsic::rint, Regular},
    {"nearbyint", 1, ReadsNothing, dZero, Intrinsic::nearbyint, Regular},
    {"roundeven", 1, ReadsNothing, dZero, Intrinsic::roundeven, Regular},
    {"rsqrt", 1, ReadsResult, dRsqrt, Intrinsic::not_intrinsic,
     Singular}, // 0 (CUDA's rsqrt, rsqrtf)
    // Intrinsic-only rows.
    {"llvm.rcp", 1, ReadsResult, dRcp, Intrinsic::not_intrinsic,
     Singular}, // 0 (NVVM's rcp, reached as a synonym)
    {"llvm.fmuladd", 3, ReadsArgs01, dFma, Intrinsic::fmuladd, Regular},
    {"llvm.minimum", 2, ReadsArg0 | ReadsResult, dSelectOne, Intrinsic::minimum,
     Chooses},
    {"llvm.maximum", 2, ReadsArg0 | ReadsResult, dSelectOne, Intrinsic::maximum,
     Chooses},
    {"llvm.minimumnum", 2, ReadsArg0 | ReadsResult, dSelectOne,
     Intrinsic::minimumnum, Chooses},
    {"llvm.maximumnum", 2, ReadsArg0 | ReadsResult, dSelectOne,
     Intrinsic::maximumnum, Chooses},
};

// fmul's partials are its operands, finite where the arguments are; fdiv's
// are 1/b and -(a/b)/b (b = 0, or a tiny b); frem's -trunc(a/b) (b = 0).
const MathRule InstructionRules[] = {
    {"fadd", 2, ReadsNothing, RecomputeCost::Cheap, dFAdd, Regular},
    {"fsub", 2, ReadsNothing, RecomputeCost::Cheap, dFSub, Regular},
    {"fmul", 2, ReadsArgs01, RecomputeCost::Cheap, dFMul, Regular},
    {"fdiv", 2, ReadsArg1 | ReadsResult, RecomputeCost::Cheap, dFDiv, Singular},
    {"frem", 2, ReadsArgs01, RecomputeCost::Costly, dFRem, Singular},
    {"fneg", 1, ReadsNothing, RecomputeCost::Cheap, dFNeg, Regular},
};

/// An NVVM intrinsic and the row it shares, by the row's name: the same
/// operation in a rounding mode (rn: what CUDA's headers and libdevice emit;
/// ftz flushes denormals, which the partials do not see) or, for the
/// approximations CUDA's fast intrinsics use (__expf, __sinf, __fdividef,
/// rsqrtf: their results are the program's own arithmetic), the exact
/// operation's partials.
struct NVVMSynonym {
  Intrinsic::ID ID;
  const char *Row;
};
const NVVMSynonym NVVMSynonyms[] = {
    {Intrinsic::nvvm_fabs, "fabs"},
    {Intrinsic::nvvm_fma_rn_d, "fma"},
    {Intrinsic::nvvm_fma_rn_f, "fma"},
    {Intrinsic::nvvm_sqrt_rn_d, "sqrt"},
    {Intrinsic::nvvm_sqrt_rn_f, "sqrt"},
    {Intrinsic::nvvm_sqrt_f, "sqrt"},
    {Intrinsic::nvvm_fmin_d, "fmin"},
    {Intrinsic::nvvm_fmin_f, "fmin"},
    {Intrinsic::nvvm_fmax_d, "fmax"},
    {Intrinsic::nvvm_fmax_f, "fmax"},
    {Intrinsic::nvvm_add_rn_d, "fadd"},
    {Intrinsic::nvvm_add_rn_f, "fadd"},
    {Intrinsic::nvvm_mul_rn_d, "fmul"},
    {Intrinsic::nvvm_mul_rn_f, "fmul"},
    {Intrinsic::nvvm_div_rn_d, "fdiv"},
    {Intrinsic::nvvm_div_rn_f, "fdiv"},
    {Intrinsic::nvvm_div_approx_f, "fdiv"},
    {Intrinsic::nvvm_div_approx_ftz_f, "fdiv"},
    {Intrinsic::nvvm_div_full, "fdiv"},
    {Intrinsic::nvvm_div_full_ftz, "fdiv"},
    {Intrinsic::nvvm_ex2_approx, "exp2"},
    {Intrinsic::nvvm_ex2_approx_ftz, "exp2"},
    {Intrinsic::nvvm_lg2_approx_f, "log2"},
    {Intrinsic::nvvm_lg2_approx_ftz_f, "log2"},
    {Intrinsic::nvvm_lg2_approx_d, "log2"},
    {Intrinsic::nvvm_sin_approx_f, "sin"},
    {Intrinsic::nvvm_sin_approx_ftz_f, "sin"},
    {Intrinsic::nvvm_cos_approx_f, "cos"},
    {Intrinsic::nvvm_cos_approx_ftz_f, "cos"},
    {Intrinsic::nvvm_rsqrt_approx_f, "rsqrt"},
    {Intrinsic::nvvm_rsqrt_approx_ftz_f, "rsqrt"},
    {Intrinsic::nvvm_rsqrt_approx_d, "rsqrt"},
    {Intrinsic::nvvm_rsqrt_approx_ftz_d, "rsqrt"},
    {Intrinsic::nvvm_rcp_rn_d, "llvm.rcp"},
    {Intrinsic::nvvm_rcp_rn_f, "llvm.rcp"},
    {Intrinsic::nvvm_rcp_approx_ftz_d, "llvm.rcp"},
    {Intrinsic::nvvm_rcp_approx_ftz_f, "llvm.rcp"},
};

/// libdevice functions that are an operation of a row under another name:
/// the fast approximations behind __expf, __sinf, ... (their results are
/// the program's own arithmetic; the partials are the exact operation's).
const std::pair<const char *, const char *> LibdeviceSynonyms[] = {
    {"__nv_fast_expf", "exp"},      {"__nv_fast_exp10f", "exp10"},
    {"__nv_fast_logf", "log"},      {"__nv_fast_log2f", "log2"},
    {"__nv_fast_log10f", "log10"},  {"__nv_fast_powf", "pow"},
    {"__nv_fast_sinf", "sin"},      {"__nv_fast_cosf", "cos"},
    {"__nv_fast_tanf", "tan"},      {"__nv_fast_tanhf", "tanh"},
    {"__nv_fast_fdividef", "fdiv"}, {"__nv_fdividef", "fdiv"},
    {"__nv_frsqrt_rn", "rsqrt"},
};
/// ... and the arithmetic in a rounding mode behind __fadd_rn, __dmul_rz,
/// __frcp_rd, ...: "__nv_" + float form or double form + "_" + mode.
const std::tuple<const char *, const char *, const char *> RoundedArithmetic[] =
    {
        {"fadd", "dadd", "fadd"},     {"fsub", "dsub", "fsub"},
        {"fmul", "dmul", "fmul"},     {"fdiv", "ddiv", "fdiv"},
        {"fmaf", "fma", "fma"},       {"fsqrt", "dsqrt", "sqrt"},
        {"frcp", "drcp", "llvm.rcp"},
};

struct RuleIndex {
  StringMap<MathRule> ByName;
  DenseMap<unsigned, MathRule> ByIntrinsic;
  SmallVector<MathRule, 0> All;

  RuleIndex() {
    for (const NamedRule &R : Rules) {
      MathRule Rule{R.Name,    R.NumDiffArgs, R.Reads, RecomputeCost::Costly,
                    R.Partial, R.Guard};
      All.push_back(Rule);
      StringRef Name(R.Name);
      if (!Name.starts_with("llvm.") && !Name.starts_with("__")) {
        ByName[Name] = Rule;
        ByName[(Name + "f").str()] = Rule;
        ByName[(Name + "l").str()] = Rule;
        // CUDA's libdevice: __nv_sin (double), __nv_sinf (float).
        ByName[("__nv_" + Name).str()] = Rule;
        ByName[("__nv_" + Name + "f").str()] = Rule;
      }
      if (R.Intrinsic != Intrinsic::not_intrinsic)
        ByIntrinsic[R.Intrinsic] = Rule;
    }
    // Compiler-rt's powi helpers, and libdevice's.
    for (const char *Powi :
         {"__powidf2", "__powisf2", "__nv_powi", "__nv_powif"})
      ByName[Powi] = ByIntrinsic[Intrinsic::powi];
    // NVVM intrinsics that are the same operation as a row (what CUDA's
    // intrinsics such as __dmul_rn and libdevice's inlined bodies call).
    StringMap<MathRule> ByRowName;
    for (const MathRule &Rule : All)
      ByRowName[Rule.Name] = Rule;
    for (const MathRule &Rule : InstructionRules)
      ByRowName[Rule.Name] = Rule;
    for (auto [ID, Row] : NVVMSynonyms) {
      assert(ByRowName.count(Row) && "a synonym names no row");
      ByIntrinsic[ID] = ByRowName[Row];
    }
    for (auto [Name, Row] : LibdeviceSynonyms) {
      assert(ByRowName.count(Row) && "a synonym names no row");
      ByName[Name] = ByRowName[Row];
    }
    for (auto [Float, Double, Row] : RoundedArithmetic)
      for (const char *Mode : {"rn", "rz", "rd", "ru"})
        for (const char *Form : {Float, Double})
          ByName[(Twine("__nv_") + Form + "_" + Mode).str()] = ByRowName[Row];
    append_range(All, InstructionRules);
  }
};

const RuleIndex &index() {
  static const RuleIndex Index;
  return Index;
}

} // namespace

ArrayRef<MathRule> allMathRules() { return index().All; }

Value *PrimalAccessor::computed(IRBuilderBase &B, Intrinsic::ID F) const {
  if (Alongside)
    if (Value *V = Alongside(F))
      return V;
  return unary(B, F, Values(0));
}

SmallVector<CallBase *, 2> callsAlongside(Instruction &Call, Intrinsic::ID F) {
  SmallVector<CallBase *, 2> Found;
  const RuleIndex &Idx = index();
  auto Want = Idx.ByIntrinsic.find(F);
  auto *Own = dyn_cast<CallBase>(&Call);
  const MathRule *OwnRule = Own ? lookupMathRule(*Own) : nullptr;
  if (Want == Idx.ByIntrinsic.end() || !OwnRule)
    return Found;
  // Rows are copied per name and per intrinsic: they match by name.
  StringRef Name = Want->second.Name;
  unsigned NumArgs = Own->arg_size();
  for (User *U : Call.getOperand(0)->users()) {
    auto *Other = dyn_cast<CallBase>(U);
    if (!Other || Other == Own || Other->getType() != Call.getType() ||
        Other->getFunction() != Call.getFunction() ||
        Other->arg_size() != NumArgs)
      continue;
    const MathRule *Rule = lookupMathRule(*Other);
    if (!Rule || Name != Rule->Name)
      continue;
    if (all_of(seq(NumArgs), [&](unsigned K) {
          return Other->getArgOperand(K) == Own->getArgOperand(K);
        }))
      Found.push_back(Other);
  }
  return Found;
}

const MathRule *lookupMathRule(const CallBase &Call) {
  const Function *F = calledFunction(Call);
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
  // The rule reads its differentiable arguments: a function of that name
  // with fewer (one the optimizer specialized) is not the library's.
  if (Call.arg_size() < It->second.NumDiffArgs)
    return nullptr;
  for (unsigned K = 0; K < It->second.NumDiffArgs; ++K)
    if (!Call.getArgOperand(K)->getType()->isFPOrFPVectorTy())
      return nullptr;
  return &It->second;
}

/// The constant a partial is (a scalar or a splat), or nullptr.
static const ConstantFP *constantPartial(Value *Partial) {
  if (auto *C = dyn_cast<ConstantFP>(Partial))
    return C;
  if (auto *C = dyn_cast<Constant>(Partial))
    return dyn_cast_or_null<ConstantFP>(C->getSplatValue());
  return nullptr;
}

/// partial * D, skipping the multiplication by the constants 1 and -1.
static Value *scaleByPartial(IRBuilderBase &B, Value *Partial, Value *D) {
  const ConstantFP *C = constantPartial(Partial);
  if (C && C->isExactlyValue(1.0))
    return D;
  if (C && C->isExactlyValue(-1.0))
    return B.CreateFNeg(D);
  return B.CreateFMul(Partial, D);
}

/// The guard one term needs. A finite constant partial (fadd's 1, fsub's -1)
/// needs none; 1/b with a constant b = 0 folds to an infinite one, which
/// does. Rows marked None are exact without a guard wherever the operation's
/// arguments are finite: their partials are finite there, and a finite
/// partial times a zero is a zero. What they leave out is a term whose
/// partial is an operand that is itself infinite or NaN (y * log(0) with a
/// zero tangent of y): the primal computes with infinities there already,
/// and guarding every fmul's term would add a compare and a select to every
/// multiplication of a hot loop (matrix products), which -ad-strong-zero=all
/// does for whoever needs it.
static ZeroGuard guardFor(ZeroGuard RowGuard, Value *Partial) {
  if (StrongZeroMode == StrongZero::Off)
    return ZeroGuard::None;
  if (const ConstantFP *C = constantPartial(Partial);
      C && C->getValueAPF().isFinite())
    return ZeroGuard::None;
  if (StrongZeroMode == StrongZero::All && RowGuard == ZeroGuard::None)
    return ZeroGuard::Derivative;
  return RowGuard;
}

Value *partialTerm(IRBuilderBase &B, const MathRule &Rule, unsigned I,
                   PrimalAccessor Primal, Type *Ty, Value *Derivative) {
  Value *Partial = Rule.Partial(B, I, Primal, Ty);
  return Partial ? guardedTerm(B, Rule.Guard, Partial, Derivative) : nullptr;
}

Value *guardedTerm(IRBuilderBase &B, ZeroGuard Guard, Value *Partial,
                   Value *Derivative) {
  // Strong zero: where one factor is exactly 0, the factor that may be
  // infinite or NaN is replaced by 0 before multiplying, so that the term is
  // 0 (signed as the product of two zeros) instead of 0 * inf = NaN. In both
  // modes the guarded factor is the same one: a zero tangent or a zero
  // adjoint (reverse mode reaches the argument of sqrt in fmax(sqrt(x), c)
  // with the adjoint 0 of fmax's unchosen arm) must not meet sqrt's infinite
  // partial at x = 0.
  // Only a factor that is infinite or NaN is replaced: a finite one stays
  // (its product with 0 is 0 anyway), so that a derivative of this
  // derivative (nested differentiation) still sees partial * dDerivative
  // where the derivative is 0 but its own derivative is not.
  Value *Zero = ConstantFP::get(Derivative->getType(), 0.0);
  auto NotFinite = [&](Value *V) {
    return B.createIsFPClass(V, fcInf | fcNan);
  };
  switch (guardFor(Guard, Partial)) {
  case ZeroGuard::None:
    break;
  case ZeroGuard::Derivative:
    Partial = B.CreateSelect(
        B.CreateAnd(B.CreateFCmpOEQ(Derivative, Zero), NotFinite(Partial)),
        Zero, Partial);
    break;
  case ZeroGuard::Partial:
    Derivative = B.CreateSelect(
        B.CreateAnd(B.CreateFCmpOEQ(Partial, Zero), NotFinite(Derivative)),
        Zero, Derivative);
    break;
  }
  return scaleByPartial(B, Partial, Derivative);
}

const MathRule *lookupInstructionRule(unsigned Opcode) {
  switch (Opcode) {
  case Instruction::FAdd:
    return &InstructionRules[0];
  case Instruction::FSub:
    return &InstructionRules[1];
  case Instruction::FMul:
    return &InstructionRules[2];
  case Instruction::FDiv:
    return &InstructionRules[3];
  case Instruction::FRem:
    return &InstructionRules[4];
  case Instruction::FNeg:
    return &InstructionRules[5];
  default:
    return nullptr;
  }
}

} // namespace ad
