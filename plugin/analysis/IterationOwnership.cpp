//===- IterationOwnership.cpp - Memory each worksharing iteration owns ---===//
#include "analysis/IterationOwnership.h"
#include "analysis/RegionFootprint.h"
#include "analysis/RegionRanges.h"
#include "core/ParallelRegionCalls.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {

namespace {

/// An offset as a sum of atoms (the worksharing index, the quotients of it
/// that collapse takes) times coefficients, plus what no atom changes.
struct Linear {
  SmallDenseMap<const SCEV *, const SCEV *, 4> Coeff;
  const SCEV *Rest;
};

/// An access: its offset, its size, and the loop it runs in.
struct Placed {
  Linear Offset;
  const SCEV *Size;
  const Loop *In;
};

/// A quotient of the loop's index: D / Y.
struct Quotient {
  const SCEV *Atom, *Dividend, *Divisor;
};

class OwnershipFinder {
public:
  OwnershipFinder(ScalarEvolution &SE, LoopInfo &LI, const Loop &W,
                  const SCEV *Index)
      : SE(SE), LI(LI), W(W), Index(Index),
        I64(Type::getInt64Ty(Index->getType()->getContext())) {}

  std::optional<Linear> linearize(const SCEV *S, unsigned Depth = 0);
  /// Whether \p Offsets put the bytes of distinct iterations apart.
  /// Comparisons A <= B left to a run-time check go to \p Unproven
  /// (when given) instead of failing.
  bool apart(ArrayRef<Placed> Offsets,
             SmallVectorImpl<std::pair<const SCEV *, const SCEV *>> *Unproven);
  /// Whether what the loops inside add to \p P, and its size, have bounds.
  bool bounded(const Placed &P) {
    return range(P.Offset.Rest, P.In) && range(P.Size, P.In);
  }
  /// Whether \p A and \p B, with the same digits, touch distinct bytes in
  /// every iteration: one's rest ends where the other's begins, or before.
  bool apartWithin(const Placed &A, const Placed &B);

private:
  /// \p S in 64 bits, extensions pushed down to the values, so that one
  /// product is written one way (sext(T * NH) as sext(T) * sext(NH)):
  /// indices that address memory do not wrap; a zero extension only of
  /// what is non-negative where the worksharing loop runs.
  const SCEV *ext(const SCEV *S) { return wide(S, /*Signed=*/true); }
  const SCEV *wide(const SCEV *S, bool Signed);
  std::optional<Quotient> quotientAtom(const SCEV *S);
  bool containsAtom(const SCEV *S) {
    return SCEVExprContains(S, [&](const SCEV *X) {
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(X))
        return AR->getLoop() == &W;
      return quotientAtom(X).has_value();
    });
  }
  /// A <= B, shown under the worksharing loop's guards.
  bool atMost(const SCEV *A, const SCEV *B);
  /// X >= 1 there, also a product of such factors.
  bool atLeastOne(const SCEV *X);
  /// \p S with its products of sums multiplied out.
  const SCEV *expand(const SCEV *S, unsigned Depth = 0);
  /// The range of \p S where loop \p In runs (its trip counts, zero
  /// extended by scalar evolution, are then the signed values they extend).
  std::optional<std::pair<const SCEV *, const SCEV *>> range(const SCEV *S,
                                                             const Loop *In) {
    std::optional<OffsetRange> R = regionOffsetRange(S, SE, In);
    if (!R)
      return std::nullopt;
    return std::make_pair(signedWhereRuns(ext(R->Lo), In),
                          signedWhereRuns(ext(R->Hi), In));
  }
  const SCEV *signedWhereRuns(const SCEV *S, const Loop *In);
  /// X >= 0 wherever loop \p In runs (its guards, its entry's conditions).
  bool nonNegativeWhereRuns(const SCEV *X, const Loop *In);

  ScalarEvolution &SE;
  LoopInfo &LI;
  const Loop &W;
  const SCEV *Index;
  Type *I64;
};

const SCEV *OwnershipFinder::wide(const SCEV *S, bool Signed) {
  auto Extend = [&](const SCEV *X) {
    return Signed ? SE.getTruncateOrSignExtend(X, I64)
                  : SE.getTruncateOrZeroExtend(X, I64);
  };
  switch (S->getSCEVType()) {
  case scSignExtend:
    return wide(cast<SCEVCastExpr>(S)->getOperand(0), true);
  case scZeroExtend: {
    // The zero extension of what is non-negative, perhaps once simplified
    // (1 + (T * NH - 1) / NH is T), is its sign extension.
    const SCEV *X = cast<SCEVCastExpr>(S)->getOperand(0);
    const SCEV *Simpler = wide(X, true);
    if (nonNegativeWhereRuns(X, &W) || nonNegativeWhereRuns(Simpler, &W))
      return Simpler;
    return Extend(S);
  }
  case scTruncate: // An index that fits where it came from.
    return wide(cast<SCEVCastExpr>(S)->getOperand(0), Signed);
  case scUDivExpr: {
    // (T * NH - 1) / NH is T - 1 (a collapsed loop's extent).
    auto *Div = cast<SCEVUDivExpr>(S);
    const SCEV *A = wide(Div->getLHS(), Signed);
    const SCEV *B = wide(Div->getRHS(), Signed);
    const SCEV *One = SE.getOne(I64);
    if (const SCEV *E = exactQuotient(SE.getAddExpr(A, One), B, SE))
      return SE.getMinusSCEV(E, One);
    if (const SCEV *E = exactQuotient(A, B, SE))
      return E;
    return SE.getUDivExpr(A, B);
  }
  case scAddExpr:
  case scMulExpr: {
    // (Not a zero extension: zext(c - 1) is not zext(c) + zext(-1).)
    if (!Signed)
      return Extend(S);
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands())
      Ops.push_back(wide(Op, Signed));
    return isa<SCEVAddExpr>(S) ? SE.getAddExpr(Ops) : SE.getMulExpr(Ops);
  }
  default:
    // A value: signed where it is non-negative anyway.
    return Extend(S->getType() == I64 || Signed || !nonNegativeWhereRuns(S, &W)
                      ? S
                      : SE.getSignExtendExpr(S, I64));
  }
}

std::optional<Quotient> OwnershipFinder::quotientAtom(const SCEV *S) {
  const SCEV *Dividend = nullptr, *Divisor = nullptr;
  if (auto *Div = dyn_cast<SCEVUDivExpr>(S)) {
    Dividend = Div->getLHS(), Divisor = Div->getRHS();
  } else if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    auto *Op = dyn_cast<BinaryOperator>(U->getValue());
    if (!Op || (Op->getOpcode() != Instruction::SDiv &&
                Op->getOpcode() != Instruction::UDiv))
      return std::nullopt;
    Dividend = SE.getSCEV(Op->getOperand(0));
    Divisor = SE.getSCEV(Op->getOperand(1));
  } else {
    return std::nullopt;
  }
  // Of the index: the dividend changes with the loop, the divisor not.
  bool OfIndex = SCEVExprContains(Dividend, [&](const SCEV *X) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(X);
    if (AR && AR->getLoop() == &W)
      return true;
    auto *U = dyn_cast<SCEVUnknown>(X);
    auto *I = U ? dyn_cast<Instruction>(U->getValue()) : nullptr;
    return I && W.contains(I) && isa<BinaryOperator>(I) &&
           cast<BinaryOperator>(I)->isIntDivRem();
  });
  if (!OfIndex || !SE.isLoopInvariant(Divisor, &W))
    return std::nullopt;
  return Quotient{S, Dividend, Divisor};
}

std::optional<Linear> OwnershipFinder::linearize(const SCEV *S,
                                                 unsigned Depth) {
  if (Depth > 24)
    return std::nullopt;
  if (!containsAtom(S))
    return Linear{SmallDenseMap<const SCEV *, const SCEV *, 4>(), ext(S)};
  if (quotientAtom(S)) {
    Linear L{SmallDenseMap<const SCEV *, const SCEV *, 4>(), SE.getZero(I64)};
    L.Coeff[S] = SE.getOne(I64);
    return L;
  }
  auto Scaled = [&](Linear L, const SCEV *By) {
    for (auto &[Atom, C] : L.Coeff)
      C = SE.getMulExpr(C, By);
    L.Rest = SE.getMulExpr(L.Rest, By);
    return L;
  };
  switch (S->getSCEVType()) {
  case scAddRecExpr: {
    auto *AR = cast<SCEVAddRecExpr>(S);
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (!AR->isAffine() || containsAtom(Step))
      return std::nullopt;
    if (AR->getLoop() == &W) {
      // Rest + Step * index, Rest the same in every iteration.
      const SCEV *In = SE.getTruncateOrSignExtend(Index, AR->getType());
      const SCEV *Rest = SE.getMinusSCEV(AR, SE.getMulExpr(Step, In));
      if (!SE.isLoopInvariant(Rest, &W))
        return std::nullopt;
      std::optional<Linear> L = linearize(Rest, Depth + 1);
      if (!L)
        return std::nullopt;
      const SCEV *&C = L->Coeff[Index];
      C = C ? SE.getAddExpr(C, ext(Step)) : ext(Step);
      return L;
    }
    // A loop inside the worksharing one: its steps are the rest's.
    if (!W.contains(AR->getLoop()))
      return std::nullopt;
    std::optional<Linear> L = linearize(AR->getStart(), Depth + 1);
    if (!L)
      return std::nullopt;
    L->Rest = SE.getAddExpr(L->Rest,
                            SE.getAddRecExpr(SE.getZero(I64), ext(Step),
                                             AR->getLoop(), SCEV::FlagAnyWrap));
    return L;
  }
  case scAddExpr: {
    Linear Sum{SmallDenseMap<const SCEV *, const SCEV *, 4>(), SE.getZero(I64)};
    for (const SCEV *Op : cast<SCEVAddExpr>(S)->operands()) {
      std::optional<Linear> L = linearize(Op, Depth + 1);
      if (!L)
        return std::nullopt;
      for (auto &[Atom, C] : L->Coeff) {
        const SCEV *&Into = Sum.Coeff[Atom];
        Into = Into ? SE.getAddExpr(Into, C) : C;
      }
      Sum.Rest = SE.getAddExpr(Sum.Rest, L->Rest);
    }
    return Sum;
  }
  case scMulExpr: {
    // One factor that the atoms change, times what they do not.
    const SCEV *Varying = nullptr;
    SmallVector<const SCEV *, 4> Fixed;
    for (const SCEV *Op : cast<SCEVMulExpr>(S)->operands()) {
      if (!containsAtom(Op)) {
        Fixed.push_back(ext(Op));
        continue;
      }
      if (Varying)
        return std::nullopt;
      Varying = Op;
    }
    std::optional<Linear> L = linearize(Varying, Depth + 1);
    if (!L)
      return std::nullopt;
    return Scaled(*L, SE.getMulExpr(Fixed));
  }
  case scSignExtend:
  case scZeroExtend:
  case scTruncate:
    // Indices that address memory do not wrap.
    return linearize(cast<SCEVCastExpr>(S)->getOperand(0), Depth + 1);
  default:
    return std::nullopt;
  }
}

bool OwnershipFinder::nonNegativeWhereRuns(const SCEV *X, const Loop *In) {
  if (SE.isKnownNonNegative(X))
    return true;
  // A product of non-negative factors (4 * T * T).
  if (auto *M = dyn_cast<SCEVMulExpr>(X))
    if (all_of(M->operands(),
               [&](const SCEV *F) { return nonNegativeWhereRuns(F, In); }))
      return true;
  if (isa<SCEVSignExtendExpr>(X))
    return nonNegativeWhereRuns(cast<SCEVCastExpr>(X)->getOperand(0), In);
  if (!In)
    return false;
  const SCEV *Zero = SE.getZero(X->getType());
  const SCEV *One = SE.getOne(X->getType());
  // (X + 1 > 0 too: a trip count less one, where the guard is count > 0.)
  return SE.isKnownNonNegative(SE.applyLoopGuards(X, In)) ||
         SE.isLoopEntryGuardedByCond(In, ICmpInst::ICMP_SGE, X, Zero) ||
         SE.isLoopEntryGuardedByCond(In, ICmpInst::ICMP_SGT,
                                     SE.getAddExpr(X, One), Zero);
}

const SCEV *OwnershipFinder::signedWhereRuns(const SCEV *S, const Loop *In) {
  SmallVector<const SCEV *, 4> Ops;
  for (const SCEV *Op : S->operands())
    Ops.push_back(signedWhereRuns(Op, In));
  // sext(X - k) is sext(X) - k where X >= 0 (a trip count less one).
  auto SignExtend = [&](const SCEV *X) {
    auto *Add = dyn_cast<SCEVAddExpr>(X);
    auto *K = Add && Add->getNumOperands() == 2
                  ? dyn_cast<SCEVConstant>(Add->getOperand(0))
                  : nullptr;
    if (K && K->getAPInt().isNegative() &&
        nonNegativeWhereRuns(Add->getOperand(1), In))
      return SE.getAddExpr(
          SE.getSignExtendExpr(Add->getOperand(1), S->getType()),
          SE.getSignExtendExpr(K, S->getType()));
    return SE.getSignExtendExpr(X, S->getType());
  };
  switch (S->getSCEVType()) {
  case scZeroExtend:
    return nonNegativeWhereRuns(Ops[0], In)
               ? SignExtend(Ops[0])
               : SE.getZeroExtendExpr(Ops[0], S->getType());
  case scSignExtend:
    return SignExtend(Ops[0]);
  case scAddExpr:
    return SE.getAddExpr(Ops);
  case scMulExpr:
    return SE.getMulExpr(Ops);
  case scSMaxExpr:
    return SE.getSMaxExpr(Ops);
  case scSMinExpr:
    return SE.getSMinExpr(Ops);
  default:
    return S;
  }
}

const SCEV *OwnershipFinder::expand(const SCEV *S, unsigned Depth) {
  if (Depth > 8)
    return S;
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : Add->operands())
      Ops.push_back(expand(Op, Depth + 1));
    return SE.getAddExpr(Ops);
  }
  auto *Mul = dyn_cast<SCEVMulExpr>(S);
  if (!Mul)
    return S;
  // The product of the factors' expansions, one sum at a time.
  const SCEV *Product = SE.getOne(S->getType());
  for (const SCEV *Op : Mul->operands()) {
    const SCEV *X = expand(Op, Depth + 1);
    SmallVector<const SCEV *, 4> Terms;
    auto *Sum = dyn_cast<SCEVAddExpr>(Product);
    for (const SCEV *P :
         Sum ? Sum->operands() : ArrayRef<const SCEV *>(Product))
      if (auto *XS = dyn_cast<SCEVAddExpr>(X))
        for (const SCEV *T : XS->operands())
          Terms.push_back(SE.getMulExpr(P, T));
      else
        Terms.push_back(SE.getMulExpr(P, X));
    Product = SE.getAddExpr(Terms);
  }
  return Product;
}

bool OwnershipFinder::atLeastOne(const SCEV *X) {
  if (nonNegativeWhereRuns(SE.getMinusSCEV(X, SE.getOne(X->getType())), &W))
    return true;
  if (isa<SCEVSignExtendExpr, SCEVZeroExtendExpr>(X))
    return atLeastOne(cast<SCEVCastExpr>(X)->getOperand(0));
  auto *M = dyn_cast<SCEVMulExpr>(X);
  return M &&
         all_of(M->operands(), [&](const SCEV *F) { return atLeastOne(F); });
}

bool OwnershipFinder::atMost(const SCEV *A, const SCEV *B) {
  // B = A * F, F >= 1, A >= 0 (a product of extents, at least each).
  if (const SCEV *F = exactQuotient(B, A, SE);
      F && atLeastOne(F) && nonNegativeWhereRuns(A, &W))
    return true;
  const SCEV *Diff = SE.getMinusSCEV(B, A);
  if (SE.isKnownNonNegative(Diff) ||
      SE.isKnownNonNegative(SE.applyLoopGuards(Diff, &W)))
    return true;
  // A remainder's lower bound (C - NH * (C / NH) >= 0), under the guards.
  std::optional<std::pair<const SCEV *, const SCEV *>> R = range(Diff, &W);
  return R && (SE.isKnownNonNegative(R->first) ||
               SE.isKnownNonNegative(SE.applyLoopGuards(R->first, &W)));
}

bool OwnershipFinder::apartWithin(const Placed &A, const Placed &B) {
  if (A.Offset.Coeff.size() != B.Offset.Coeff.size())
    return false;
  for (auto &[Atom, C] : A.Offset.Coeff) {
    auto It = B.Offset.Coeff.find(Atom);
    if (It == B.Offset.Coeff.end() ||
        (It->second != C && expand(It->second) != expand(C)))
      return false;
  }
  auto RA = range(A.Offset.Rest, A.In), RB = range(B.Offset.Rest, B.In);
  auto SA = range(A.Size, A.In), SB = range(B.Size, B.In);
  if (!RA || !RB || !SA || !SB)
    return false;
  return atMost(SE.getAddExpr(RA->second, SA->second), RB->first) ||
         atMost(SE.getAddExpr(RB->second, SB->second), RA->first);
}

bool OwnershipFinder::apart(
    ArrayRef<Placed> Offsets,
    SmallVectorImpl<std::pair<const SCEV *, const SCEV *>> *Unproven) {
  // The quotients any offset uses, and the chain their dividends form:
  // q1 = iv / D1, q2 = (iv - q1 D1) / D2, ...
  SmallVector<Quotient, 4> Chain;
  SmallVector<const SCEV *, 4> Seen;
  SmallVector<const SCEV *, 4> Work;
  for (const Placed &P : Offsets)
    for (auto &[Atom, C] : P.Offset.Coeff)
      if (Atom != Index && !C->isZero())
        Work.push_back(Atom);
  SmallDenseMap<const SCEV *, Linear, 4> DividendOf;
  while (!Work.empty()) {
    const SCEV *Atom = Work.pop_back_val();
    if (is_contained(Seen, Atom))
      continue;
    Seen.push_back(Atom);
    std::optional<Quotient> Q = quotientAtom(Atom);
    std::optional<Linear> D = Q ? linearize(Q->Dividend) : std::nullopt;
    if (!D || !D->Rest->isZero())
      return false;
    for (auto &[A, C] : D->Coeff)
      if (A != Index)
        Work.push_back(A);
    Chain.push_back(*Q);
    DividendOf.try_emplace(Atom, *D);
  }
  // Ordered by how many quotients their dividends subtract: q_k's is the
  // index less q_j * D_j for every j < k.
  stable_sort(Chain, [&](const Quotient &A, const Quotient &B) {
    return DividendOf.find(A.Atom)->second.Coeff.size() <
           DividendOf.find(B.Atom)->second.Coeff.size();
  });
  for (auto [K, Q] : enumerate(Chain)) {
    const Linear &D = DividendOf.find(Q.Atom)->second;
    if (D.Coeff.size() != K + 1)
      return false;
    for (auto &[A, C] : D.Coeff) {
      if (A == Index) {
        if (!C->isOne())
          return false;
        continue;
      }
      auto J = find_if(Chain, [&](const Quotient &P) { return P.Atom == A; });
      if (J == Chain.end() || unsigned(J - Chain.begin()) >= K ||
          C != SE.getNegativeSCEV(ext(J->Divisor)))
        return false;
    }
  }
  // Every offset has the same coefficients: then the same digit strides.
  const Linear &First = Offsets.front().Offset;
  auto CoeffOf = [&](const Linear &L, const SCEV *Atom) {
    auto It = L.Coeff.find(Atom);
    return It == L.Coeff.end() ? SE.getZero(I64) : It->second;
  };
  // (Compared multiplied out: 4 x (a - b) and x (4 a - 4 b) are one.)
  auto Same = [&](const SCEV *X, const SCEV *Y) {
    return X == Y || expand(X) == expand(Y);
  };
  for (const Placed &P : Offsets) {
    if (!Same(CoeffOf(P.Offset, Index), CoeffOf(First, Index)))
      return false;
    for (const Quotient &Q : Chain)
      if (!Same(CoeffOf(P.Offset, Q.Atom), CoeffOf(First, Q.Atom)))
        return false;
  }
  // The digits: their strides and extents.
  struct Digit {
    const SCEV *Stride, *Extent; // Extent: highest minus lowest digit.
  };
  SmallVector<Digit, 4> Digits;
  const SCEV *A = CoeffOf(First, Index);
  auto IndexRange = range(Index, &W);
  if (!IndexRange || !SE.isKnownNonNegative(IndexRange->first))
    return false;
  const SCEV *One = SE.getOne(I64);
  for (auto [K, Q] : enumerate(Chain)) {
    const SCEV *D = ext(Q.Divisor);
    const SCEV *Stride =
        SE.getAddExpr(SE.getMulExpr(A, D), CoeffOf(First, Q.Atom));
    const SCEV *Extent;
    if (K == 0) {
      Extent = SE.getMinusSCEV(SE.getUDivExpr(IndexRange->second, D),
                               SE.getUDivExpr(IndexRange->first, D));
    } else {
      const SCEV *Outer = ext(Chain[K - 1].Divisor);
      const SCEV *E = exactQuotient(Outer, D, SE);
      Extent = E ? SE.getMinusSCEV(E, One)
                 : SE.getUDivExpr(SE.getMinusSCEV(Outer, One), D);
    }
    Digits.push_back({Stride, Extent});
  }
  Digits.push_back(
      {A, Chain.empty() ? SE.getMinusSCEV(IndexRange->second, IndexRange->first)
                        : SE.getMinusSCEV(ext(Chain.back().Divisor), One)});
  // What one iteration touches: the rests' ranges, with their sizes, each
  // where its access runs.
  const SCEV *Lo = nullptr, *Hi = nullptr;
  for (const Placed &P : Offsets) {
    auto R = range(P.Offset.Rest, P.In);
    auto Bytes = range(P.Size, P.In); // a memset's length, perhaps
    if (!R || !Bytes)
      return false;
    const SCEV *End = SE.getAddExpr(R->second, Bytes->second);
    Lo = Lo ? SE.getSMinExpr(Lo, R->first) : R->first;
    Hi = Hi ? SE.getSMaxExpr(Hi, End) : End;
  }
  const SCEV *Span = SE.getMinusSCEV(Hi, Lo);
  // A digit the offsets do not depend on (every iteration reads all of a
  // weight matrix): never apart, whatever a check would say.
  if (any_of(Digits, [](const Digit &D) { return D.Stride->isZero(); }))
    return false;
  // Smallest stride first (where that cannot be told, the loop's own
  // order, innermost first); each at least the span below it. (Any order
  // in which that holds keeps distinct digits apart.)
  while (!Digits.empty()) {
    auto Next = find_if(Digits, [&](const Digit &D) {
      return all_of(Digits, [&](const Digit &O) {
        return &O == &D || atMost(D.Stride, O.Stride);
      });
    });
    if (Next == Digits.end()) {
      if (!Unproven)
        return false;
      Next = std::prev(Digits.end());
    }
    if (!atMost(Span, Next->Stride)) {
      if (!Unproven)
        return false;
      Unproven->push_back({Span, Next->Stride});
    }
    Span = SE.getAddExpr(Span, SE.getMulExpr(Next->Stride, Next->Extent));
    Digits.erase(Next);
  }
  return true;
}

} // namespace

/// The worksharing loop around \p BB and its index, or nulls.
static std::pair<const Loop *, const SCEV *>
worksharingAround(const BasicBlock &BB, ScalarEvolution &SE, LoopInfo &LI) {
  for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop())
    if (const SCEV *X = worksharingIndex(*L, SE))
      return {L, X};
  return {nullptr, nullptr};
}

/// The pointer \p I accesses memory through and how many bytes, as scalar
/// evolution sees them: loads, stores, atomic updates, memsets (their
/// length); other memory intrinsics and compare-exchanges have a pointer
/// and no size, as have scalable vectors (accesses this does not place).
static std::pair<Value *, const SCEV *> accessedBytes(Instruction &I,
                                                      ScalarEvolution &SE) {
  const DataLayout &DL = I.getDataLayout();
  Type *I64 = Type::getInt64Ty(I.getContext());
  auto SizeOf = [&](Type *T) -> const SCEV * {
    TypeSize Bytes = DL.getTypeStoreSize(T);
    return Bytes.isScalable() ? nullptr
                              : SE.getConstant(I64, Bytes.getFixedValue());
  };
  if (auto *L = dyn_cast<LoadInst>(&I))
    return {L->getPointerOperand(), SizeOf(L->getType())};
  if (auto *S = dyn_cast<StoreInst>(&I))
    return {S->getPointerOperand(), SizeOf(S->getValueOperand()->getType())};
  if (auto *M = dyn_cast<MemSetInst>(&I))
    return {M->getRawDest(),
            SE.getTruncateOrZeroExtend(SE.getSCEV(M->getLength()), I64)};
  if (auto *R = dyn_cast<AtomicRMWInst>(&I))
    return {R->getPointerOperand(), SizeOf(R->getValOperand()->getType())};
  if (isa<MemIntrinsic>(&I) || isa<AtomicCmpXchgInst>(&I))
    return {getLoadStorePointerOperand(&I), nullptr};
  return {nullptr, nullptr};
}

/// Whether every access of \p Accessed but \p Unplaced lands on bytes its
/// iteration writes: a store, or a load of what a store in its block writes
/// (at the same address, at least as wide).
static bool writtenByItsIteration(ArrayRef<Instruction *> Accessed,
                                  ArrayRef<Instruction *> Unplaced,
                                  ScalarEvolution &SE) {
  const DataLayout &DL = Accessed.front()->getDataLayout();
  for (Instruction *I : Accessed) {
    if (is_contained(Unplaced, I) || isa<StoreInst>(I) || isa<MemSetInst>(I))
      continue;
    auto *L = dyn_cast<LoadInst>(I);
    if (!L)
      return false;
    const SCEV *Address = SE.getSCEV(L->getPointerOperand());
    TypeSize Bytes = DL.getTypeStoreSize(L->getType());
    if (none_of(*L->getParent(), [&](Instruction &J) {
          auto *S = dyn_cast<StoreInst>(&J);
          return S && SE.getSCEV(S->getPointerOperand()) == Address &&
                 TypeSize::isKnownGE(
                     DL.getTypeStoreSize(S->getValueOperand()->getType()),
                     Bytes);
        }))
      return false;
  }
  return true;
}

IterationOwnedMemory
iterationOwnedParameters(Function &Body, ScalarEvolution &SE, LoopInfo &LI,
                         SmallVectorImpl<OwnershipCheck> *Checks) {
  IterationOwnedMemory Owned;
  for (Argument &Arg : Body.args()) {
    if (Arg.getArgNo() < RegionThreadIdParams || Arg.getArgNo() >= 64 ||
        !Arg.getType()->isPointerTy() || Arg.use_empty() || !staysInRegion(Arg))
      continue;
    const SCEV *Base = SE.getSCEV(&Arg);
    const Loop *W = nullptr;
    const SCEV *Index = nullptr;
    struct Access {
      Instruction *I;
      const SCEV *Offset, *Size;
      const Loop *In;
    };
    SmallVector<Access, 8> Accesses;
    bool Ok = true;
    for (Instruction &I : instructions(Body)) {
      BasicBlock &BB = *I.getParent();
      auto [Ptr, Size] = accessedBytes(I, SE);
      if (!Ptr || isa<AllocaInst>(getUnderlyingObject(Ptr)))
        continue;
      const SCEV *Address = SE.getSCEV(Ptr);
      if (SE.getPointerBase(Address) != Base) {
        // Through the parameter after all (a phi or select of pointers):
        // an access this does not place.
        SmallVector<const Value *, 4> Objects;
        getUnderlyingObjects(Ptr, Objects);
        if (is_contained(Objects, &Arg)) {
          Ok = false;
          break;
        }
        continue;
      }
      // In the one worksharing loop around every access.
      auto [Around, AroundIndex] = worksharingAround(BB, SE, LI);
      if (!Around || (W && Around != W) || !Size) {
        Ok = false;
        break;
      }
      W = Around, Index = AroundIndex;
      Accesses.push_back(
          {&I, tripCountsWhereRuns(SE.removePointerBase(Address), BB, SE),
           tripCountsWhereRuns(Size, BB, SE), LI.getLoopFor(&BB)});
    }
    if (!Ok || !W)
      continue;
    OwnershipFinder Finder(SE, LI, *W, Index);
    SmallVector<Placed, 8> Offsets;
    SmallVector<Instruction *, 8> Accessed, Unplaced;
    for (const Access &A : Accesses) {
      Accessed.push_back(A.I);
      if (std::optional<Linear> L = Finder.linearize(A.Offset)) {
        Placed P{*L, SE.getTruncateOrSignExtend(A.Size, A.Offset->getType()),
                 A.In};
        if (Finder.bounded(P)) {
          Offsets.push_back(P);
          continue;
        }
      }
      if (!isa<LoadInst>(A.I) || cast<LoadInst>(A.I)->isAtomic()) {
        Ok = false;
        break;
      }
      Unplaced.push_back(A.I);
    }
    if (!Ok || Offsets.empty() ||
        (!Unplaced.empty() && !writtenByItsIteration(Accessed, Unplaced, SE)))
      continue;
    // (Also where only a check would own the parameter: the derivative may
    // be the checked copy's, DerivativeSignature::OwnedArgs.)
    for (Instruction *I : Unplaced)
      Owned.Unplaced.insert(getLoadStorePointerOperand(I));
    SmallVector<std::pair<const SCEV *, const SCEV *>, 2> Unproven;
    if (!Finder.apart(Offsets, Checks ? &Unproven : nullptr))
      continue;
    if (Unproven.empty())
      Owned.Params |= uint64_t(1) << Arg.getArgNo();
    else
      Checks->push_back({Arg.getArgNo(), std::move(Unproven)});
  }
  return Owned;
}

/// \p I's access through parameter \p Arg as a Placed offset in \p Finder's
/// terms; nullopt if it has no size or does not linearize.
static std::optional<Placed> placeAccess(Instruction &I,
                                         OwnershipFinder &Finder,
                                         ScalarEvolution &SE, LoopInfo &LI) {
  if (isa<AtomicRMWInst>(I))
    return std::nullopt;
  auto [Ptr, Size] = accessedBytes(I, SE);
  if (!Ptr || !Size)
    return std::nullopt;
  const BasicBlock &BB = *I.getParent();
  const SCEV *Offset =
      tripCountsWhereRuns(SE.removePointerBase(SE.getSCEV(Ptr)), BB, SE);
  std::optional<Linear> L = Finder.linearize(Offset);
  if (!L)
    return std::nullopt;
  return Placed{*L,
                SE.getTruncateOrSignExtend(tripCountsWhereRuns(Size, BB, SE),
                                           Offset->getType()),
                LI.getLoopFor(&BB)};
}

bool unchangedLaterInIteration(Instruction &X, ScalarEvolution &SE,
                               LoopInfo &LI, AAResults &AAR) {
  Value *Ptr = getLoadStorePointerOperand(&X);
  auto *Arg = Ptr ? dyn_cast<Argument>(getUnderlyingObject(Ptr)) : nullptr;
  auto [W, Index] = worksharingAround(*X.getParent(), SE, LI);
  if (!Arg || !W || SE.getPointerBase(SE.getSCEV(Ptr)) != SE.getSCEV(Arg))
    return false;
  // The blocks the rest of this iteration may run: up to the worksharing
  // loop's header, where the next iteration (of other bytes) begins.
  SmallPtrSet<const BasicBlock *, 32> Later;
  SmallVector<const BasicBlock *, 16> Work(successors(X.getParent()));
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == W->getHeader() || !W->contains(BB) || !Later.insert(BB).second)
      continue;
    append_range(Work, successors(BB));
  }
  OwnershipFinder Finder(SE, LI, *W, Index);
  std::optional<Placed> Mine = placeAccess(X, Finder, SE, LI);
  MemoryLocation Loc = MemoryLocation::get(&X);
  for (Instruction &Wr : instructions(*X.getFunction())) {
    if (!Wr.mayWriteToMemory() || isa<LoadInst>(Wr))
      continue;
    bool After = Later.contains(Wr.getParent()) ||
                 (Wr.getParent() == X.getParent() && X.comesBefore(&Wr));
    if (!After || !isModSet(AAR.getModRefInfo(&Wr, Loc)))
      continue;
    if (&Wr == &X) {
      // The store again, in a later pass of its loop: at another address.
      const Loop *In = LI.getLoopFor(X.getParent());
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr));
      auto *Step = AR && AR->getLoop() == In
                       ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                       : nullptr;
      TypeSize Bytes = X.getDataLayout().getTypeStoreSize(
          cast<StoreInst>(X).getValueOperand()->getType());
      if (!Step || In->getParentLoop() != W || Bytes.isScalable() ||
          Step->getAPInt().abs().ult(Bytes.getFixedValue()))
        return false;
      continue;
    }
    Value *To = getLoadStorePointerOperand(&Wr);
    if (auto *M = dyn_cast<MemSetInst>(&Wr))
      To = M->getRawDest();
    if (!To || isa<AtomicCmpXchgInst>(Wr) || isa<AtomicRMWInst>(Wr))
      return false;
    // Through another parameter: the caller's check showed the region's
    // writes there miss these bytes (ReloadVersioning.h); in the thread's
    // own stack: they cannot reach them.
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(To, Objects);
    if (none_of(Objects, [&](const Value *O) {
          return O == Arg || !(isa<Argument>(O) || isa<AllocaInst>(O));
        }))
      continue;
    if (Objects.size() != 1 || Objects.front() != Arg || !Mine)
      return false;
    std::optional<Placed> Theirs = placeAccess(Wr, Finder, SE, LI);
    if (!Theirs || !Finder.apartWithin(*Mine, *Theirs))
      return false;
  }
  return true;
}

} // namespace ad
