//===- RegionRanges.cpp - What a region's accesses span over all threads --===//
#include "analysis/RegionRanges.h"
#include "core/IRHelpers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include <functional>

using namespace llvm;

namespace ad {

/// A parameter only read through: its memory holds one value all along.
bool isOnlyLoadedFrom(const Argument &Arg) {
  return all_of(Arg.users(), [&](const User *U) {
    auto *L = dyn_cast<LoadInst>(U);
    return L && L->getPointerOperand() == &Arg;
  });
}

/// A value the caller of the region knows before forking: a parameter, or
/// a load from a parameter nothing writes through (a captured variable the
/// region only reads holds one value all along).
/// Integer arithmetic on such values (a head size C / NH) is known there
/// too.
static bool isEntryValue(const Value *V, unsigned Depth) {
  if (isa<Argument>(V))
    return true;
  if (auto *L = dyn_cast<LoadInst>(V)) {
    auto *Arg = dyn_cast<Argument>(L->getPointerOperand());
    return Arg && !L->isVolatile() && isOnlyLoadedFrom(*Arg);
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 4 || !I->getType()->isIntegerTy() ||
      !(isa<BinaryOperator>(I) || isa<CastInst>(I)))
    return false;
  return all_of(I->operands(), [&](const Value *Op) {
    return isa<ConstantInt>(Op) || isEntryValue(Op, Depth + 1);
  });
}

bool isRegionEntryValue(const Value *V) { return isEntryValue(V, 0); }

/// L op R, made unable to trap (core/IRHelpers.h): where the original
/// divides, the value is the same.
static Value *emitSafeBinOp(IRBuilderBase &B, Instruction::BinaryOps Opcode,
                            Value *L, Value *R) {
  makeDivisionSafe(B, Opcode, L, R);
  return B.CreateBinOp(Opcode, L, R);
}

/// \p V, or a copy of it computed before the loops around it that do not
/// change it: a head size C / NH that inlining left inside the layer loop,
/// where the division's trap keeps LICM from hoisting it, is then invariant
/// to scalar evolution.
static Value *outsideLoops(Value *V, const LoopInfo &LI, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 4 || !I->getType()->isIntegerTy() ||
      !LI.getLoopFor(I->getParent()) ||
      !(isa<BinaryOperator>(I) || isa<CastInst>(I)))
    return V;
  SmallVector<Value *, 2> Ops;
  for (Value *Op : I->operands())
    Ops.push_back(outsideLoops(Op, LI, Depth + 1));
  const Loop *Out = nullptr;
  for (const Loop *L = LI.getLoopFor(I->getParent()); L;
       L = L->getParentLoop()) {
    if (any_of(Ops, [&](Value *Op) {
          auto *OI = dyn_cast<Instruction>(Op);
          return OI && L->contains(OI);
        }))
      break;
    Out = L;
  }
  if (!Out || !Out->getLoopPreheader())
    return V;
  IRBuilder<> B(Out->getLoopPreheader()->getTerminator());
  if (auto *Cast = dyn_cast<CastInst>(I))
    return B.CreateCast(Cast->getOpcode(), Ops[0], Cast->getType());
  return emitSafeBinOp(B, cast<BinaryOperator>(I)->getOpcode(), Ops[0], Ops[1]);
}

/// Entry value \p V rebuilt at \p B from the region call's arguments \p Args:
/// a parameter is its argument, a load from one loads from the argument,
/// arithmetic is redone (without the flags that could make it poison here,
/// dividing by 1 where the divisor is 0: the region divides only where it
/// is not).
static Value *emitEntryValue(Value *V, IRBuilderBase &B,
                             ArrayRef<Value *> Args) {
  if (isa<Constant>(V))
    return V;
  if (auto *Arg = dyn_cast<Argument>(V))
    return Args[Arg->getArgNo()];
  if (auto *L = dyn_cast<LoadInst>(V))
    return B.CreateLoad(
        L->getType(), Args[cast<Argument>(L->getPointerOperand())->getArgNo()]);
  if (auto *Cast = dyn_cast<CastInst>(V))
    return B.CreateCast(Cast->getOpcode(),
                        emitEntryValue(Cast->getOperand(0), B, Args),
                        Cast->getType());
  auto *Op = cast<BinaryOperator>(V);
  return emitSafeBinOp(B, Op->getOpcode(),
                       emitEntryValue(Op->getOperand(0), B, Args),
                       emitEntryValue(Op->getOperand(1), B, Args));
}

/// The value stored to \p Slot last before \p Call, in Call's block.
static Value *storedBefore(Value *Slot, Instruction *Call) {
  for (Instruction *I = Call->getPrevNode(); I; I = I->getPrevNode())
    if (auto *St = dyn_cast<StoreInst>(I);
        St && St->getPointerOperand() == Slot)
      return St->getValueOperand();
  return nullptr;
}

/// If \p AR is the index of a worksharing loop (it starts at the lower
/// bound libomp wrote for the thread, and counts up by one), the first and
/// last index of the whole loop, over all threads: what the region stored
/// for libomp before __kmpc_for_static_init, or passed to
/// __kmpc_dispatch_init.
static std::optional<std::pair<Value *, Value *>>
worksharingRange(const SCEVAddRecExpr &AR, ScalarEvolution &SE) {
  const SCEV *Start = AR.getStart();
  while (auto *Cast = dyn_cast<SCEVCastExpr>(Start))
    Start = Cast->getOperand(0);
  auto *U = dyn_cast<SCEVUnknown>(Start);
  auto *Lower = U ? dyn_cast<LoadInst>(U->getValue()) : nullptr;
  if (!Lower || !AR.getStepRecurrence(SE)->isOne())
    return std::nullopt;
  Value *Slot = Lower->getPointerOperand();
  for (User *User : Slot->users()) {
    auto *Call = dyn_cast<CallInst>(User);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee)
      continue;
    StringRef Name = Callee->getName();
    if (Name.starts_with("__kmpc_for_static_init_") &&
        Call->getArgOperand(4) == Slot) {
      Value *First = storedBefore(Slot, Call);
      Value *Last = storedBefore(Call->getArgOperand(5), Call);
      if (First && Last)
        return std::make_pair(First, Last);
    }
    if (Name.starts_with("__kmpc_dispatch_next_") &&
        Call->getArgOperand(3) == Slot) {
      // The region's one dynamic loop: its bounds went to dispatch_init.
      CallInst *Init = nullptr;
      for (Instruction &I : instructions(*Call->getFunction()))
        if (auto *C = dyn_cast<CallInst>(&I);
            C && C->getCalledFunction() &&
            C->getCalledFunction()->getName().starts_with(
                "__kmpc_dispatch_init_")) {
          if (Init)
            return std::nullopt;
          Init = C;
        }
      if (Init)
        return std::make_pair(Init->getArgOperand(3), Init->getArgOperand(4));
    }
  }
  return std::nullopt;
}

const SCEV *exactQuotient(const SCEV *A, const SCEV *B, ScalarEvolution &SE) {
  if (A == B)
    return SE.getOne(A->getType());
  SmallVector<const SCEV *, 4> Factors;
  if (auto *M = dyn_cast<SCEVMulExpr>(A))
    append_range(Factors, M->operands());
  else
    return nullptr;
  SmallVector<const SCEV *, 2> Divisors;
  if (auto *M = dyn_cast<SCEVMulExpr>(B))
    append_range(Divisors, M->operands());
  else
    Divisors.push_back(B);
  for (const SCEV *D : Divisors) {
    auto At = find(Factors, D);
    if (At == Factors.end())
      return nullptr;
    Factors.erase(At);
  }
  return Factors.empty() ? SE.getOne(A->getType()) : SE.getMulExpr(Factors);
}

const SCEV *worksharingIndex(const Loop &L, ScalarEvolution &SE) {
  for (PHINode &Phi : L.getHeader()->phis())
    if (SE.isSCEVable(Phi.getType()))
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
          AR && AR->getLoop() == &L && worksharingRange(*AR, SE))
        return AR;
  return nullptr;
}

/// The least (or greatest, \p Upper) value \p S takes over every
/// iteration of the loops it recurs in, over entry values; nullptr when
/// that cannot be told.
constexpr unsigned MaxBoundSize = 256;

using BoundCache = DenseMap<std::pair<const SCEV *, unsigned>, const SCEV *>;

static const SCEV *boundOnce(const SCEV *S, bool Upper, ScalarEvolution &SE,
                             const Loop *Inner, BoundCache &Cache,
                             unsigned Depth);

static const SCEV *bound(const SCEV *S, bool Upper, ScalarEvolution &SE,
                         const Loop *Inner, BoundCache &Cache,
                         unsigned Depth = 0) {
  if (Depth > 32)
    return nullptr;
  auto [It, New] = Cache.try_emplace({S, unsigned(Upper)}, nullptr);
  if (!New)
    return It->second;
  const SCEV *B = boundOnce(S, Upper, SE, Inner, Cache, Depth);
  // Interval products of sums grow a bound's expression geometrically; a
  // bound that large is no use (and costs scalar evolution its stack).
  if (B && B->getExpressionSize() > MaxBoundSize)
    B = nullptr;
  Cache[{S, unsigned(Upper)}] = B;
  return B;
}

/// A quotient q = D / Y (scalar evolution's udiv, or an sdiv or udiv it
/// leaves alone), in \p Ty: D and Y truncated to it if wider.
struct Quotient {
  const SCEV *Dividend, *Divisor; // As the division has them.
};
static std::optional<Quotient> quotientOf(const SCEV *S, ScalarEvolution &SE) {
  if (auto *T = dyn_cast<SCEVTruncateExpr>(S))
    S = T->getOperand();
  if (auto *Div = dyn_cast<SCEVUDivExpr>(S))
    return Quotient{Div->getLHS(), Div->getRHS()};
  auto *U = dyn_cast<SCEVUnknown>(S);
  auto *Op = U ? dyn_cast<BinaryOperator>(U->getValue()) : nullptr;
  if (Op && (Op->getOpcode() == Instruction::SDiv ||
             Op->getOpcode() == Instruction::UDiv))
    return Quotient{SE.getSCEV(Op->getOperand(0)),
                    SE.getSCEV(Op->getOperand(1))};
  return std::nullopt;
}

/// \p S as a sum of products (a product of sums multiplied out), each a
/// list of factors; false if that grows past a few dozen terms.
static bool expandProducts(const SCEV *S,
                           SmallVectorImpl<SmallVector<const SCEV *, 4>> &Out) {
  constexpr unsigned MaxTerms = 32;
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : Add->operands())
      if (!expandProducts(Op, Out) || Out.size() > MaxTerms)
        return false;
    return true;
  }
  SmallVector<SmallVector<const SCEV *, 4>, 8> Product{{}};
  ArrayRef<const SCEV *> Factors(S);
  if (auto *M = dyn_cast<SCEVMulExpr>(S))
    Factors = M->operands();
  for (const SCEV *F : Factors) {
    SmallVector<SmallVector<const SCEV *, 4>, 8> Sum;
    if (isa<SCEVAddExpr>(F)) {
      if (!expandProducts(F, Sum))
        return false;
    } else {
      Sum.push_back({F});
    }
    SmallVector<SmallVector<const SCEV *, 4>, 8> Next;
    for (const auto &P : Product)
      for (const auto &T : Sum) {
        Next.push_back(P);
        append_range(Next.back(), T);
      }
    if (Next.size() > MaxTerms)
      return false;
    Product = std::move(Next);
  }
  append_range(Out, Product);
  return Out.size() <= MaxTerms;
}

/// The bound of sum \p Add where it holds a remainder as scalar evolution
/// writes one: a * D + -a * Y * q + R, q = D / Y, is a * (D mod Y) + R,
/// which lies within a * [0, Y - 1] + R; bounding each term apart would
/// miss that the D and q terms cancel (a collapsed loop's inner index,
/// iv - (iv / T) * T; nested, in collapse(3)). nullptr when there is none.
static const SCEV *
remainderBound(const SCEVAddExpr *Add, bool Upper, ScalarEvolution &SE,
               function_ref<const SCEV *(const SCEV *, bool)> Bound,
               function_ref<bool(const SCEV *)> NonNegative,
               function_ref<bool(const SCEV *)> NonPositive,
               function_ref<bool(const SCEV *)> AtLeastOne) {
  Type *Ty = Add->getType();
  unsigned Bits = SE.getTypeSizeInBits(Ty);
  SmallVector<SmallVector<const SCEV *, 4>, 8> Monomials;
  if (!expandProducts(Add, Monomials))
    return nullptr;
  // The quotients, the one of the largest dividend first: in collapse(3),
  // j = (iv mod TN) / N divides the remainder of i = iv / TN, and taking i
  // out first would leave j's remainder bounded apart from j.
  struct Candidate {
    unsigned Term, Factor;
    Quotient Q;
  };
  SmallVector<Candidate, 4> Candidates;
  for (auto [T, Factors] : enumerate(Monomials))
    for (auto [K, F] : enumerate(Factors))
      if (std::optional<Quotient> Q = quotientOf(F, SE);
          Q && SE.getTypeSizeInBits(Q->Dividend->getType()) >= Bits)
        Candidates.push_back({unsigned(T), unsigned(K), *Q});
  stable_sort(Candidates, [](const Candidate &A, const Candidate &B) {
    return A.Q.Dividend->getExpressionSize() >
           B.Q.Dividend->getExpressionSize();
  });
  for (const Candidate &Cand : Candidates) {
    const SmallVector<const SCEV *, 4> &Factors = Monomials[Cand.Term];
    SmallVector<const SCEV *, 4> TermFactors(Factors);
    const SCEV *Term = SE.getMulExpr(TermFactors);
    // The remainder fits Ty where the divisor does.
    const SCEV *Divisor = Cand.Q.Divisor;
    if (SE.getTypeSizeInBits(Divisor->getType()) > Bits) {
      auto *Ext = dyn_cast<SCEVIntegralCastExpr>(Divisor);
      if (!Ext || isa<SCEVTruncateExpr>(Ext) ||
          SE.getTypeSizeInBits(Ext->getOperand()->getType()) > Bits)
        continue;
    }
    const SCEV *Y = SE.getTruncateOrNoop(Divisor, Ty);
    const SCEV *D = SE.getTruncateOrNoop(Cand.Q.Dividend, Ty);
    // The term is q * c, c = -a * Y: Y among the other factors (or each of
    // its own, if a product).
    SmallVector<const SCEV *, 4> C(Factors);
    C.erase(C.begin() + Cand.Factor);
    SmallVector<const SCEV *, 2> YFactors;
    if (auto *M = dyn_cast<SCEVMulExpr>(Y))
      append_range(YFactors, M->operands());
    else
      YFactors.push_back(Y);
    bool Divides = true;
    for (const SCEV *F : YFactors) {
      auto At = find(C, F);
      if (At == C.end()) {
        Divides = false;
        break;
      }
      C.erase(At);
    }
    if (!Divides)
      continue;
    const SCEV *A =
        SE.getNegativeSCEV(C.empty() ? SE.getOne(Ty) : SE.getMulExpr(C));
    const SCEV *Rest =
        SE.getMinusSCEV(SE.getMinusSCEV(Add, Term), SE.getMulExpr(A, D));
    const SCEV *ALo = Bound(A, false), *YLo = Bound(Y, false);
    const SCEV *DLo = Bound(Cand.Q.Dividend, false);
    if (!ALo || ALo != Bound(A, true) || !YLo || YLo != Bound(Y, true) ||
        !DLo || !NonNegative(DLo) || !AtLeastOne(YLo))
      continue;
    bool Positive = NonNegative(ALo);
    if (!Positive && !NonPositive(ALo))
      continue;
    const SCEV *RestBound = Bound(Rest, Upper);
    if (!RestBound)
      continue;
    // a * (Y - 1) at the end the sign of a picks, 0 at the other.
    if (Upper == Positive)
      RestBound = SE.getAddExpr(
          RestBound, SE.getMulExpr(ALo, SE.getMinusSCEV(YLo, SE.getOne(Ty))));
    return RestBound;
  }
  return nullptr;
}

const SCEV *tripCountsWhereRuns(const SCEV *S, const BasicBlock &BB,
                                ScalarEvolution &SE) {
  struct Rewriter : SCEVRewriteVisitor<Rewriter> {
    Rewriter(ScalarEvolution &SE, const BasicBlock &BB)
        : SCEVRewriteVisitor(SE), BB(BB) {}
    const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *Z) {
      auto *Add = dyn_cast<SCEVAddExpr>(Z->getOperand());
      if (!Add || !Add->getOperand(0)->isAllOnesValue())
        return SCEVRewriteVisitor::visitZeroExtendExpr(Z);
      Type *Narrow = Add->getType(), *Wide = Z->getType();
      const SCEV *Limit = SE.getZero(Narrow), *Start = SE.getZero(Narrow);
      for (const SCEV *Op : drop_begin(Add->operands())) {
        auto *M = dyn_cast<SCEVMulExpr>(Op);
        if (M && M->getNumOperands() == 2 && M->getOperand(0)->isAllOnesValue())
          Start = SE.getAddExpr(Start, M->getOperand(1));
        else
          Limit = SE.getAddExpr(Limit, Op);
      }
      if (!SE.isBasicBlockEntryGuardedByCond(&BB, ICmpInst::ICMP_SLT, Start,
                                             Limit))
        return SCEVRewriteVisitor::visitZeroExtendExpr(Z);
      const SCEV *MinusOne = SE.getMinusOne(Wide);
      return SE.getSMaxExpr(
          SE.getAddExpr(SE.getMinusSCEV(SE.getSignExtendExpr(Limit, Wide),
                                        SE.getSignExtendExpr(Start, Wide)),
                        MinusOne),
          MinusOne);
    }
    const BasicBlock &BB;
  };
  return Rewriter(SE, BB).visit(S);
}

static const SCEV *boundOnce(const SCEV *S, bool Upper, ScalarEvolution &SE,
                             const Loop *Inner, BoundCache &Cache,
                             unsigned Depth) {
  auto Bound = [&](const SCEV *X, bool U) {
    return bound(X, U, SE, Inner, Cache, Depth + 1);
  };
  // Signs as the loop around the load knows them: the load runs only where
  // the guards of its loop held (its trip counts positive, say).
  auto NonNegative = [&](const SCEV *X) {
    return SE.isKnownNonNegative(X) ||
           (Inner && SE.isKnownNonNegative(SE.applyLoopGuards(X, Inner)));
  };
  auto NonPositive = [&](const SCEV *X) {
    return SE.isKnownNonPositive(X) ||
           (Inner && SE.isKnownNonPositive(SE.applyLoopGuards(X, Inner)));
  };
  // Y >= 1, also where Y is a product of such factors, which the guards
  // (each factor positive) do not show directly.
  std::function<bool(const SCEV *)> AtLeastOne = [&](const SCEV *Y) {
    if (NonNegative(SE.getMinusSCEV(Y, SE.getOne(Y->getType()))))
      return true;
    if (isa<SCEVSignExtendExpr, SCEVZeroExtendExpr>(Y))
      return AtLeastOne(cast<SCEVCastExpr>(Y)->getOperand(0));
    auto *M = dyn_cast<SCEVMulExpr>(Y);
    return M && all_of(M->operands(), AtLeastOne);
  };
  if (isa<SCEVConstant>(S))
    return S;
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    if (isRegionEntryValue(U->getValue()))
      return S;
    // A quotient or remainder of a non-negative value by a positive one the
    // loops do not change (a collapsed loop's indices).
    auto *Op = dyn_cast<BinaryOperator>(U->getValue());
    if (!Op)
      return nullptr;
    unsigned Opcode = Op->getOpcode();
    if (Opcode != Instruction::SDiv && Opcode != Instruction::UDiv &&
        Opcode != Instruction::SRem && Opcode != Instruction::URem)
      return nullptr;
    const SCEV *X = SE.getSCEV(Op->getOperand(0));
    const SCEV *Y = SE.getSCEV(Op->getOperand(1));
    const SCEV *XLo = Bound(X, false), *YLo = Bound(Y, false);
    if (!XLo || !YLo || YLo != Bound(Y, true) || !NonNegative(XLo) ||
        !AtLeastOne(YLo))
      return nullptr;
    if (Opcode == Instruction::SRem || Opcode == Instruction::URem)
      return Upper ? SE.getMinusSCEV(YLo, SE.getOne(YLo->getType()))
                   : SE.getZero(S->getType());
    const SCEV *XB = Upper ? Bound(X, true) : XLo;
    if (!XB)
      return nullptr;
    // (Y * E - 1) / Y is E - 1: a collapsed loop's index, whose dividend is
    // bounded by the product of the loops' extents.
    if (Upper)
      if (const SCEV *E = exactQuotient(
              SE.getAddExpr(XB, SE.getOne(XB->getType())), YLo, SE))
        return SE.getMinusSCEV(E, SE.getOne(E->getType()));
    return SE.getUDivExpr(XB, YLo);
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (!AR->isAffine())
      return nullptr;
    // A worksharing loop: its iterations, over all threads, are the ones
    // the region hands to libomp.
    if (std::optional<std::pair<Value *, Value *>> Range =
            worksharingRange(*AR, SE)) {
      const SCEV *End = SE.getTruncateOrSignExtend(
          SE.getSCEV(Upper ? Range->second : Range->first), AR->getType());
      return Bound(End, Upper);
    }
    const SCEV *Step = AR->getStepRecurrence(SE);
    // An address that a worksharing loop's index scales (a row of a matrix
    // per iteration): Rest + Step * index, Rest the same in every iteration.
    if (const SCEV *Index = worksharingIndex(*AR->getLoop(), SE)) {
      Index = SE.getTruncateOrSignExtend(Index, AR->getType());
      const SCEV *Rest = SE.getMinusSCEV(AR, SE.getMulExpr(Step, Index));
      const SCEV *StepLo = Bound(Step, false);
      if (SE.isLoopInvariant(Rest, AR->getLoop()) && StepLo &&
          StepLo == Bound(Step, true) &&
          (NonNegative(StepLo) || NonPositive(StepLo))) {
        const SCEV *RestBound = Bound(Rest, Upper);
        const SCEV *IndexBound = Bound(Index, Upper == NonNegative(StepLo));
        if (RestBound && IndexBound)
          return SE.getAddExpr(RestBound, SE.getMulExpr(StepLo, IndexBound));
      }
    }
    const SCEV *Taken =
        tripCountsWhereRuns(SE.getBackedgeTakenCount(AR->getLoop()),
                            *AR->getLoop()->getHeader(), SE);
    // A trip count that varies with an outer loop (a triangle) may pair
    // the largest start with the most trips although no iteration has
    // both: a looser bound, which costs buffer space only (the sum skips
    // what nobody read).
    if (isa<SCEVCouldNotCompute>(Taken) || !Bound(Step, false) ||
        Bound(Step, false) != Bound(Step, true))
      return nullptr;
    bool Rising = NonNegative(Step);
    if (!Rising && !NonPositive(Step)) {
      // A stride of a sign only the run knows (a row length the loops never
      // compare): one end is the first iteration's, the other the last's.
      const SCEV *Trips = Bound(Taken, true);
      const SCEV *Start = Bound(AR->getStart(), Upper);
      if (!Trips || !Start)
        return nullptr;
      Trips = SE.getTruncateOrZeroExtend(Trips, Step->getType());
      const SCEV *Last = SE.getAddExpr(Start, SE.getMulExpr(Step, Trips));
      return Upper ? SE.getSMaxExpr(Start, Last) : SE.getSMinExpr(Start, Last);
    }
    // The first iteration gives one end, the last the other.
    if (Rising != Upper)
      return Bound(AR->getStart(), Upper);
    const SCEV *Trips = Bound(Taken, true);
    if (!Trips)
      return nullptr;
    Trips = SE.getTruncateOrZeroExtend(Trips, Step->getType());
    const SCEV *Start = Bound(AR->getStart(), Upper);
    return Start ? SE.getAddExpr(Start, SE.getMulExpr(Step, Trips)) : nullptr;
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    if (const SCEV *B = remainderBound(Add, Upper, SE, Bound, NonNegative,
                                       NonPositive, AtLeastOne))
      return B;
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : Add->operands())
      if (const SCEV *B = Bound(Op, Upper))
        Ops.push_back(B);
      else
        return nullptr;
    return SE.getAddExpr(Ops);
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    // Interval products, factor by factor.
    const SCEV *Lo = SE.getOne(S->getType()), *Hi = Lo;
    for (const SCEV *Op : Mul->operands()) {
      const SCEV *OpLo = Bound(Op, false), *OpHi = Bound(Op, true);
      if (!OpLo || !OpHi)
        return nullptr;
      if (OpLo == OpHi && Lo == Hi) {
        Lo = Hi = SE.getMulExpr(Lo, OpLo);
        continue;
      }
      // One side the loops do not change, of known sign: scale the other.
      const SCEV *Fixed = OpLo == OpHi ? OpLo : Lo == Hi ? Lo : nullptr;
      if (Fixed && (NonNegative(Fixed) || NonPositive(Fixed))) {
        const SCEV *RangeLo = Fixed == OpLo ? Lo : OpLo;
        const SCEV *RangeHi = Fixed == OpLo ? Hi : OpHi;
        if (NonPositive(Fixed) && !Fixed->isZero())
          std::swap(RangeLo, RangeHi);
        Lo = SE.getMulExpr(RangeLo, Fixed);
        Hi = SE.getMulExpr(RangeHi, Fixed);
        continue;
      }
      // Of a sign only the run knows (a row length the loops never
      // compare, like a padded vocabulary): the ends map to the ends,
      // in an order the run decides.
      if (Fixed) {
        const SCEV *AtLo = SE.getMulExpr(Fixed == OpLo ? Lo : OpLo, Fixed);
        const SCEV *AtHi = SE.getMulExpr(Fixed == OpLo ? Hi : OpHi, Fixed);
        Lo = SE.getSMinExpr(AtLo, AtHi);
        Hi = SE.getSMaxExpr(AtLo, AtHi);
        continue;
      }
      // Both vary: a product of non-negative ranges only.
      if (!NonNegative(Lo) || !NonNegative(OpLo))
        return nullptr;
      Lo = SE.getMulExpr(Lo, OpLo);
      Hi = SE.getMulExpr(Hi, OpHi);
    }
    return Upper ? Hi : Lo;
  }
  if (auto *Trunc = dyn_cast<SCEVTruncateExpr>(S)) {
    // Exact while the value fits, which an index that addresses memory does.
    const SCEV *B = Bound(Trunc->getOperand(), Upper);
    return B ? SE.getTruncateExpr(B, S->getType()) : nullptr;
  }
  if (auto *Ext = dyn_cast<SCEVSignExtendExpr>(S)) {
    const SCEV *B = Bound(Ext->getOperand(), Upper);
    return B ? SE.getSignExtendExpr(B, S->getType()) : nullptr;
  }
  if (auto *Ext = dyn_cast<SCEVZeroExtendExpr>(S)) {
    const SCEV *Lo = Bound(Ext->getOperand(), false);
    const SCEV *B = Bound(Ext->getOperand(), Upper);
    // Monotonic only while the operand stays non-negative (or one value).
    if (!Lo || !B || (!NonNegative(Lo) && Lo != Bound(Ext->getOperand(), true)))
      return nullptr;
    return SE.getZeroExtendExpr(B, S->getType());
  }
  if (auto *MM = dyn_cast<SCEVMinMaxExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : MM->operands())
      if (const SCEV *B = Bound(Op, Upper))
        Ops.push_back(B);
      else
        return nullptr;
    switch (MM->getSCEVType()) {
    case scSMaxExpr:
      return SE.getSMaxExpr(Ops);
    case scUMaxExpr:
      return SE.getUMaxExpr(Ops);
    case scSMinExpr:
      return SE.getSMinExpr(Ops);
    case scUMinExpr:
      return SE.getUMinExpr(Ops);
    default:
      return nullptr;
    }
  }
  return nullptr;
}

/// Whether emitRegionBound and regionBoundInCaller can rebuild \p S.
static bool emittable(const SCEV *S) {
  switch (S->getSCEVType()) {
  case scConstant:
  case scUnknown:
    return true;
  case scAddExpr:
  case scMulExpr:
  case scSignExtend:
  case scZeroExtend:
  case scTruncate:
  case scSMaxExpr:
  case scUMaxExpr:
  case scSMinExpr:
  case scUMinExpr:
  case scUDivExpr:
    return all_of(S->operands(), emittable);
  default:
    return false;
  }
}

Value *emitExpression(const SCEV *S, IRBuilderBase &B,
                      function_ref<Value *(Value *)> Unknown) {
  Type *Ty = S->getType();
  auto Op = [&](unsigned I) {
    return emitExpression(S->operands()[I], B, Unknown);
  };
  auto Fold = [&](auto Combine) {
    Value *V = Op(0);
    for (unsigned I = 1; I < S->operands().size(); ++I)
      V = Combine(V, Op(I));
    return V;
  };
  switch (S->getSCEVType()) {
  case scConstant:
    return cast<SCEVConstant>(S)->getValue();
  case scUnknown:
    return Unknown(cast<SCEVUnknown>(S)->getValue());
  case scAddExpr:
    return Fold([&](Value *A, Value *C) {
      if (A->getType()->isPointerTy())
        return B.CreatePtrAdd(A, C);
      if (C->getType()->isPointerTy())
        return B.CreatePtrAdd(C, A);
      return B.CreateAdd(A, C);
    });
  case scMulExpr:
    return Fold([&](Value *A, Value *C) { return B.CreateMul(A, C); });
  case scSignExtend:
    return B.CreateSExt(Op(0), Ty);
  case scZeroExtend:
    return B.CreateZExt(Op(0), Ty);
  case scTruncate:
    return B.CreateTrunc(Op(0), Ty);
  case scPtrToInt:
    return B.CreatePtrToInt(Op(0), Ty);
  case scUDivExpr: {
    // No division by zero where the code it bounds would not run.
    Value *D = Op(1);
    Value *Safe = B.CreateSelect(B.CreateIsNull(D), ConstantInt::get(Ty, 1), D);
    return B.CreateUDiv(Op(0), Safe);
  }
  default: {
    Intrinsic::ID ID = S->getSCEVType() == scSMaxExpr   ? Intrinsic::smax
                       : S->getSCEVType() == scUMaxExpr ? Intrinsic::umax
                       : S->getSCEVType() == scSMinExpr ? Intrinsic::smin
                                                        : Intrinsic::umin;
    return Fold(
        [&](Value *A, Value *C) { return B.CreateBinaryIntrinsic(ID, A, C); });
  }
  }
}

Value *emitRegionBound(const SCEV *S, IRBuilderBase &B,
                       ArrayRef<Value *> Args) {
  return emitExpression(S, B,
                        [&](Value *V) { return emitEntryValue(V, B, Args); });
}

std::optional<OffsetRange>
regionOffsetRange(const SCEV *Offset, ScalarEvolution &SE, const Loop *Inner) {
  BoundCache Cache;
  const SCEV *Lo = bound(Offset, false, SE, Inner, Cache),
             *Hi = bound(Offset, true, SE, Inner, Cache);
  if (!Lo || !Hi || !emittable(Lo) || !emittable(Hi))
    return std::nullopt;
  return OffsetRange{Lo, Hi};
}

const SCEV *regionBoundInCaller(const SCEV *S, ScalarEvolution &CallerSE,
                                CallBase &Call, const LoopInfo &LI) {
  auto Op = [&](unsigned I) {
    return regionBoundInCaller(S->operands()[I], CallerSE, Call, LI);
  };
  SmallVector<const SCEV *, 4> Ops;
  for (unsigned I = 0; I < S->operands().size(); ++I)
    if (const SCEV *X = Op(I))
      Ops.push_back(X);
    else
      return nullptr;
  Type *Ty = S->getType();
  switch (S->getSCEVType()) {
  case scConstant:
    return CallerSE.getConstant(cast<SCEVConstant>(S)->getAPInt());
  case scUnknown: {
    // A parameter is the call's argument; what the region computes from
    // its parameters is computed from the arguments before the call.
    Value *V = cast<SCEVUnknown>(S)->getValue();
    if (!CallerSE.isSCEVable(Ty) || !isRegionEntryValue(V))
      return nullptr;
    if (auto *Arg = dyn_cast<Argument>(V)) {
      Value *Actual = outsideLoops(Call.getArgOperand(Arg->getArgNo()), LI);
      return Actual->getType() == Ty ? CallerSE.getSCEV(Actual) : nullptr;
    }
    SmallVector<Value *, 16> Args(Call.args());
    Instruction *Before = Call.getPrevNode();
    IRBuilder<> B(&Call);
    Value *Actual = emitEntryValue(V, B, Args);
    // Out of the loops whose iterations do not change it, so that scalar
    // evolution sees it invariant there (which it asks first).
    SmallVector<Instruction *, 8> Created;
    for (Instruction *I = Before ? Before->getNextNode()
                                 : &Call.getParent()->front();
         I != &Call; I = I->getNextNode())
      Created.push_back(I);
    for (Instruction *I : Created)
      while (Loop *L = LI.getLoopFor(I->getParent())) {
        BasicBlock *Preheader = L->getLoopPreheader();
        if (!Preheader || isa<LoadInst>(I) || !L->hasLoopInvariantOperands(I))
          break;
        I->moveBefore(Preheader->getTerminator()->getIterator());
      }
    return Actual->getType() == Ty ? CallerSE.getSCEV(Actual) : nullptr;
  }
  case scAddExpr:
    return CallerSE.getAddExpr(Ops);
  case scMulExpr:
    return CallerSE.getMulExpr(Ops);
  case scSignExtend:
    return CallerSE.getSignExtendExpr(Ops[0], Ty);
  case scZeroExtend:
    return CallerSE.getZeroExtendExpr(Ops[0], Ty);
  case scTruncate:
    return CallerSE.getTruncateExpr(Ops[0], Ty);
  case scUDivExpr:
    // Over 1 where the divisor is 0: then the region never divided (or ran
    // no iteration the bound describes), and the check may be expanded
    // where it runs whatever the divisor.
    return CallerSE.getUDivExpr(
        Ops[0], CallerSE.getUMaxExpr(Ops[1], CallerSE.getOne(Ty)));
  case scSMaxExpr:
    return CallerSE.getSMaxExpr(Ops);
  case scUMaxExpr:
    return CallerSE.getUMaxExpr(Ops);
  case scSMinExpr:
    return CallerSE.getSMinExpr(Ops);
  case scUMinExpr:
    return CallerSE.getUMinExpr(Ops);
  default:
    return nullptr;
  }
}

} // namespace ad
