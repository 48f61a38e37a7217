//===- ComplexRules.cpp - The table of complex derivative rules -----------===//
//
// A call's complex values are taken apart into real components: an argument
// or result of scalar type is one component, a <2 x T>, { T, T } or [2 x T]
// is two (real part first). Complex input N is components 2N and 2N+1 of the
// arguments, in order, whatever the ABI packed them into. The Jacobian
// E[k][j] is d(result component k) / d(argument component j).
//
//===----------------------------------------------------------------------===//
#include "rules/ComplexRules.h"
#include "rules/DeviceMath.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"
#include <optional>

using namespace llvm;

namespace ad {

/// Where one real component of a call's arguments or result lives.
struct ComponentSlot {
  int Arg;   ///< Argument number, or Result.
  int Index; ///< -1: the whole (scalar) value; else its lane or field.
};

/// The real components of a call: every argument's, then the result's.
struct ComponentLayout {
  SmallVector<ComponentSlot, 4> In;
  SmallVector<ComponentSlot, 2> Out;
  Type *Elt = nullptr; ///< The one floating-point type of all of them.
};

namespace {

/// Appends the components of a value of type \p T held at \p Arg; false if
/// \p T is not a scalar or pair of \p Elt (or \p Elt is still unset).
bool appendComponents(Type *T, int Arg, Type *&Elt,
                      SmallVectorImpl<ComponentSlot> &Out) {
  Type *Part = T;
  unsigned N = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Part = VT->getElementType();
    N = VT->getNumElements();
  } else if (auto *ST = dyn_cast<StructType>(T)) {
    if (ST->getNumElements() != 2 ||
        ST->getElementType(0) != ST->getElementType(1))
      return false;
    Part = ST->getElementType(0);
    N = 2;
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    Part = AT->getElementType();
    N = AT->getNumElements();
  }
  if (!Part->isFloatingPointTy() || N > 2 || (Elt && Part != Elt))
    return false;
  Elt = Part;
  if (Part == T)
    Out.push_back({Arg, -1});
  else
    for (unsigned I = 0; I < N; ++I)
      Out.push_back({Arg, int(I)});
  return true;
}

std::optional<ComponentLayout> layoutOf(const CallBase &Call,
                                        const ComplexRule &Rule) {
  ComponentLayout L;
  for (const Use &U : Call.args())
    if (!appendComponents(U->getType(), U.getOperandNo(), L.Elt, L.In))
      return std::nullopt;
  if (!appendComponents(Call.getType(), Result, L.Elt, L.Out))
    return std::nullopt;
  if (L.In.size() != 2 * Rule.NumInputs ||
      L.Out.size() != (Rule.RealResult ? 1u : 2u))
    return std::nullopt;
  return L;
}

Value *componentOf(IRBuilderBase &B, Value *V, int Index) {
  if (Index < 0)
    return V;
  if (V->getType()->isVectorTy())
    return B.CreateExtractElement(V, uint64_t(Index));
  return B.CreateExtractValue(V, unsigned(Index));
}

/// A value of type \p T from its components \p Parts (\p Slots says where
/// each goes).
Value *assemble(IRBuilderBase &B, Type *T, ArrayRef<ComponentSlot> Slots,
                ArrayRef<Value *> Parts) {
  if (Slots.size() == 1 && Slots[0].Index < 0)
    return Parts[0];
  Value *V = PoisonValue::get(T);
  for (auto [Slot, Part] : zip(Slots, Parts))
    V = T->isVectorTy() ? B.CreateInsertElement(V, Part, uint64_t(Slot.Index))
                        : B.CreateInsertValue(V, Part, unsigned(Slot.Index));
  return V;
}

} // namespace

/// A complex number as two IR values.
struct Cx {
  Value *Re, *Im;
};

/// The primal components of one call, fetched on first use (in reverse mode
/// each fetch may tape a value, so a rule pays only for what it reads).
class ComplexPrimals {
public:
  ComplexPrimals(const ComponentLayout &L, PrimalAccessor Primal)
      : L(L), Primal(Primal) {}
  Type *type() const { return L.Elt; }
  /// Complex argument N.
  Cx z(IRBuilderBase &B, unsigned N) {
    return {component(B, L.In[2 * N]), component(B, L.In[2 * N + 1])};
  }
  /// The complex result.
  Cx w(IRBuilderBase &B) {
    return {component(B, L.Out[0]), component(B, L.Out[1])};
  }
  /// The real result (cabs, carg).
  Value *r(IRBuilderBase &B) { return component(B, L.Out[0]); }

private:
  Value *component(IRBuilderBase &B, ComponentSlot S) {
    Value *&Whole = Values[S.Arg];
    if (!Whole)
      Whole = Primal(S.Arg);
    return componentOf(B, Whole, S.Index);
  }
  const ComponentLayout &L;
  PrimalAccessor Primal;
  SmallDenseMap<int, Value *, 8> Values;
};

/// E[k][j]: d(result component k) / d(argument component j); nullptr is 0.
/// Wants[N] says whether complex input N carries a derivative at all: a rule
/// leaves the others' columns empty (and fetches nothing for them).
struct ComplexJacobian {
  Value *E[2][4] = {};
  bool Wants[2] = {};

  /// Input N enters through a holomorphic function with derivative D:
  /// d(w) = D d(z), the 2x2 block [[Re D, -Im D], [Im D, Re D]].
  void setHolomorphic(IRBuilderBase &B, unsigned N, Cx D) {
    E[0][2 * N] = D.Re;
    E[0][2 * N + 1] = B.CreateFNeg(D.Im);
    E[1][2 * N] = D.Im;
    E[1][2 * N + 1] = D.Re;
  }
};

namespace {

// --- Complex arithmetic on IR values -----------------------------------------
Value *fconst(Type *T, double C) { return ConstantFP::get(T, C); }
Cx cmul(IRBuilderBase &B, Cx A, Cx C) {
  return {B.CreateFSub(B.CreateFMul(A.Re, C.Re), B.CreateFMul(A.Im, C.Im)),
          B.CreateFAdd(B.CreateFMul(A.Re, C.Im), B.CreateFMul(A.Im, C.Re))};
}
Cx crecip(IRBuilderBase &B, Cx A) {
  Value *D = B.CreateFAdd(B.CreateFMul(A.Re, A.Re), B.CreateFMul(A.Im, A.Im));
  return {B.CreateFDiv(A.Re, D), B.CreateFNeg(B.CreateFDiv(A.Im, D))};
}
Cx cneg(IRBuilderBase &B, Cx A) {
  return {B.CreateFNeg(A.Re), B.CreateFNeg(A.Im)};
}
/// 1 + S * A * A (S = 1 or -1): tan' = 1 + tan^2, tanh' = 1 - tanh^2.
Cx onePlusSquare(IRBuilderBase &B, Cx A, double S) {
  Cx Sq = cmul(B, A, A);
  Value *One = fconst(A.Re->getType(), 1.0);
  if (S < 0)
    return {B.CreateFSub(One, Sq.Re), B.CreateFNeg(Sq.Im)};
  return {B.CreateFAdd(One, Sq.Re), Sq.Im};
}
Value *unary(IRBuilderBase &B, Intrinsic::ID ID, Value *X) {
  return emitMathIntrinsic(B, ID, {X});
}
/// The principal logarithm: log|z| + i arg z, |z| from libm's hypot.
Cx clogOf(IRBuilderBase &B, Cx Z) {
  Type *T = Z.Re->getType();
  Module *M = B.GetInsertBlock()->getModule();
  FunctionCallee Hypot =
      M->getOrInsertFunction(T->isFloatTy() ? "hypotf" : "hypot", T, T, T);
  Value *Abs = B.CreateCall(Hypot, {Z.Re, Z.Im});
  return {unary(B, Intrinsic::log, Abs),
          B.CreateBinaryIntrinsic(Intrinsic::atan2, Z.Im, Z.Re)};
}
/// sin z = (sin x cosh y, cos x sinh y), cos z = (cos x cosh y,
/// -sin x sinh y); sinh z = (sinh x cos y, cosh x sin y), cosh z = (cosh x
/// cos y, sinh x sin y). Sign: the sign of the imaginary part's product.
Cx trigPart(IRBuilderBase &B, Cx Z, Intrinsic::ID ReA, Intrinsic::ID ReB,
            Intrinsic::ID ImA, Intrinsic::ID ImB, bool NegateIm) {
  Value *Re = B.CreateFMul(unary(B, ReA, Z.Re), unary(B, ReB, Z.Im));
  Value *Im = B.CreateFMul(unary(B, ImA, Z.Re), unary(B, ImB, Z.Im));
  return {Re, NegateIm ? B.CreateFNeg(Im) : Im};
}

// --- The rules -------------------------------------------------------------
// (a + ib)(c + id): d/dz1 = z2, d/dz2 = z1.
void dMul(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  if (J.Wants[0])
    J.setHolomorphic(B, 0, P.z(B, 1));
  if (J.Wants[1])
    J.setHolomorphic(B, 1, P.z(B, 0));
}
// w = z1 / z2: d/dz1 = 1 / z2, d/dz2 = -w / z2.
void dDiv(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  Cx R = crecip(B, P.z(B, 1));
  if (J.Wants[0])
    J.setHolomorphic(B, 0, R);
  if (J.Wants[1])
    J.setHolomorphic(B, 1, cneg(B, cmul(B, P.w(B), R)));
}
void dExp(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0, P.w(B));
}
void dLog(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0, crecip(B, P.z(B, 0)));
}
// sqrt' = 1 / (2 w)
void dSqrt(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  Cx W = P.w(B);
  Value *Two = fconst(P.type(), 2.0);
  J.setHolomorphic(
      B, 0, crecip(B, {B.CreateFMul(Two, W.Re), B.CreateFMul(Two, W.Im)}));
}
// w = z^u = exp(u log z): d/dz = u w / z, d/du = w log z.
void dPow(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  Cx Z = P.z(B, 0), W = P.w(B);
  if (J.Wants[0])
    J.setHolomorphic(B, 0, cmul(B, cmul(B, P.z(B, 1), W), crecip(B, Z)));
  if (J.Wants[1])
    J.setHolomorphic(B, 1, cmul(B, W, clogOf(B, Z)));
}
// sin' = cos, cos' = -sin, sinh' = cosh, cosh' = sinh.
void dSin(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0,
                   trigPart(B, P.z(B, 0), Intrinsic::cos, Intrinsic::cosh,
                            Intrinsic::sin, Intrinsic::sinh, true));
}
void dCos(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  Cx Sin = trigPart(B, P.z(B, 0), Intrinsic::sin, Intrinsic::cosh,
                    Intrinsic::cos, Intrinsic::sinh, false);
  J.setHolomorphic(B, 0, cneg(B, Sin));
}
void dSinh(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0,
                   trigPart(B, P.z(B, 0), Intrinsic::cosh, Intrinsic::cos,
                            Intrinsic::sinh, Intrinsic::sin, false));
}
void dCosh(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0,
                   trigPart(B, P.z(B, 0), Intrinsic::sinh, Intrinsic::cos,
                            Intrinsic::cosh, Intrinsic::sin, false));
}
void dTan(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0, onePlusSquare(B, P.w(B), 1.0));
}
void dTanh(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.setHolomorphic(B, 0, onePlusSquare(B, P.w(B), -1.0));
}
// |z| = r: (x / r, y / r).
void dAbs(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  Cx Z = P.z(B, 0);
  Value *R = P.r(B);
  J.E[0][0] = B.CreateFDiv(Z.Re, R);
  J.E[0][1] = B.CreateFDiv(Z.Im, R);
}
// arg z = atan2(y, x): (-y / |z|^2, x / |z|^2).
void dArg(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  Cx Z = P.z(B, 0);
  Value *D = B.CreateFAdd(B.CreateFMul(Z.Re, Z.Re), B.CreateFMul(Z.Im, Z.Im));
  J.E[0][0] = B.CreateFNeg(B.CreateFDiv(Z.Im, D));
  J.E[0][1] = B.CreateFDiv(Z.Re, D);
}
// conj z = (x, -y): not holomorphic, a constant Jacobian.
void dConj(IRBuilderBase &B, ComplexPrimals &P, ComplexJacobian &J) {
  J.E[0][0] = fconst(P.type(), 1.0);
  J.E[1][1] = fconst(P.type(), -1.0);
}

// The table. C99 names are the double variants; the f variants are added.
// (The l variants pass long double complex in memory: no row matches them.)
const ComplexRule Rules[] = {
    {"__muldc3", 2, false, dMul}, {"__mulsc3", 2, false, dMul},
    {"__mulxc3", 2, false, dMul}, {"__divdc3", 2, false, dDiv},
    {"__divsc3", 2, false, dDiv}, {"__divxc3", 2, false, dDiv},
    {"cexp", 1, false, dExp},     {"clog", 1, false, dLog},
    {"csqrt", 1, false, dSqrt},   {"cpow", 2, false, dPow},
    {"csin", 1, false, dSin},     {"ccos", 1, false, dCos},
    {"ctan", 1, false, dTan},     {"csinh", 1, false, dSinh},
    {"ccosh", 1, false, dCosh},   {"ctanh", 1, false, dTanh},
    {"cabs", 1, true, dAbs},      {"carg", 1, true, dArg},
    {"conj", 1, false, dConj},
};

const StringMap<const ComplexRule *> &index() {
  static const StringMap<const ComplexRule *> Index = [] {
    StringMap<const ComplexRule *> M;
    for (const ComplexRule &R : Rules) {
      StringRef Name(R.Name);
      M[Name] = &R;
      if (!Name.starts_with("__"))
        M[(Name + "f").str()] = &R;
    }
    return M;
  }();
  return Index;
}

} // namespace

const ComplexRule *lookupComplexRule(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || F->isIntrinsic())
    return nullptr;
  auto It = index().find(F->getName());
  if (It == index().end() || !layoutOf(Call, *It->second))
    return nullptr;
  return It->second;
}

Value *complexTangent(IRBuilderBase &B, const ComplexRule &Rule,
                      const CallBase &Call, PrimalAccessor Primal,
                      function_ref<Value *(unsigned)> TangentOf) {
  ComponentLayout L = *layoutOf(Call, Rule);
  SmallVector<Value *, 4> In;
  for (ComponentSlot S : L.In) {
    Value *T = TangentOf(S.Arg);
    In.push_back(T ? componentOf(B, T, S.Index) : nullptr);
  }
  ComplexPrimals P(L, Primal);
  ComplexJacobian J;
  for (unsigned N = 0; N < Rule.NumInputs; ++N)
    J.Wants[N] = In[2 * N] || In[2 * N + 1];
  Rule.Jacobian(B, P, J);
  SmallVector<Value *, 2> Out;
  for (unsigned K = 0; K < L.Out.size(); ++K) {
    Value *Sum = nullptr;
    for (unsigned C = 0; C < In.size(); ++C) {
      if (!In[C] || !J.E[K][C])
        continue;
      Value *Term = B.CreateFMul(J.E[K][C], In[C]);
      Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
    }
    Out.push_back(Sum ? Sum : ConstantFP::getZero(L.Elt));
  }
  return assemble(B, Call.getType(), L.Out, Out);
}

void complexAdjoints(IRBuilderBase &B, const ComplexRule &Rule,
                     const CallBase &Call, PrimalAccessor Primal, Value *DY,
                     function_ref<bool(unsigned)> Wanted,
                     function_ref<void(unsigned, Value *)> AddAdjoint) {
  ComponentLayout L = *layoutOf(Call, Rule);
  ComplexPrimals P(L, Primal);
  ComplexJacobian J;
  for (unsigned N = 0; N < Rule.NumInputs; ++N)
    J.Wants[N] = Wanted(L.In[2 * N].Arg) || Wanted(L.In[2 * N + 1].Arg);
  Rule.Jacobian(B, P, J);
  SmallVector<Value *, 2> Out;
  for (ComponentSlot S : L.Out)
    Out.push_back(componentOf(B, DY, S.Index));
  // Each argument's components are consecutive: gather them, then hand the
  // argument its adjoint in its own type.
  for (unsigned C = 0; C < L.In.size();) {
    unsigned Arg = L.In[C].Arg, End = C;
    while (End < L.In.size() && unsigned(L.In[End].Arg) == Arg)
      ++End;
    if (Wanted(Arg)) {
      SmallVector<Value *, 2> Parts;
      for (unsigned I = C; I < End; ++I) {
        Value *Sum = nullptr;
        for (unsigned K = 0; K < Out.size(); ++K) {
          if (!J.E[K][I])
            continue;
          Value *Term = B.CreateFMul(J.E[K][I], Out[K]);
          Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
        }
        Parts.push_back(Sum ? Sum : ConstantFP::getZero(L.Elt));
      }
      AddAdjoint(Arg, assemble(B, Call.getArgOperand(Arg)->getType(),
                               ArrayRef(L.In).slice(C, End - C), Parts));
    }
    C = End;
  }
}

} // namespace ad
