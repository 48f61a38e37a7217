//===- PrivateShadows.cpp - Shadows a region's threads may keep apart -----===//
#include "analysis/PrivateShadows.h"
#include "core/ParallelRegionCalls.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace ad {

/// A parameter only read through: its memory holds one value all along.
static bool onlyLoadedFrom(const Argument &Arg) {
  return all_of(Arg.users(), [&](const User *U) {
    auto *L = dyn_cast<LoadInst>(U);
    return L && L->getPointerOperand() == &Arg;
  });
}

/// A value the caller of the region knows before forking: a parameter, or
/// a load from a parameter nothing writes through (a captured variable the
/// region only reads holds one value all along).
static bool isEntryValue(const Value *V) {
  if (isa<Argument>(V))
    return true;
  auto *L = dyn_cast<LoadInst>(V);
  auto *Arg = L ? dyn_cast<Argument>(L->getPointerOperand()) : nullptr;
  return Arg && !L->isVolatile() && onlyLoadedFrom(*Arg);
}

/// The least (or greatest, \p Upper) value \p S takes over every
/// iteration of the loops it recurs in, over entry values; nullptr when
/// that cannot be told.
static const SCEV *bound(const SCEV *S, bool Upper, ScalarEvolution &SE,
                         const Loop *Inner, unsigned Depth = 0) {
  if (Depth > 12)
    return nullptr;
  auto Bound = [&](const SCEV *X, bool U) {
    return bound(X, U, SE, Inner, Depth + 1);
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
  if (isa<SCEVConstant>(S))
    return S;
  if (auto *U = dyn_cast<SCEVUnknown>(S))
    return isEntryValue(U->getValue()) ? S : nullptr;
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (!AR->isAffine())
      return nullptr;
    const SCEV *Step = AR->getStepRecurrence(SE);
    const SCEV *Taken = SE.getBackedgeTakenCount(AR->getLoop());
    // Both ends must be reached: a trip count that varies with an outer
    // loop (a triangle) could pair the largest start with the most trips
    // although no iteration has both.
    if (isa<SCEVCouldNotCompute>(Taken) || !Bound(Step, false) ||
        Bound(Step, false) != Bound(Step, true) || !Bound(Taken, false) ||
        Bound(Taken, false) != Bound(Taken, true))
      return nullptr;
    bool Rising = NonNegative(Step);
    if (!Rising && !NonPositive(Step))
      return nullptr;
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
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : Add->operands())
      if (const SCEV *B = Bound(Op, Upper))
        Ops.push_back(B);
      else
        return nullptr;
    return SE.getAddExpr(Ops);
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    // c * X: a constant factor keeps or flips the bound.
    auto *C = dyn_cast<SCEVConstant>(Mul->getOperand(0));
    if (!C || Mul->getNumOperands() != 2)
      return nullptr;
    const SCEV *B =
        Bound(Mul->getOperand(1), Upper != C->getAPInt().isNegative());
    return B ? SE.getMulExpr(C, B) : nullptr;
  }
  if (auto *Ext = dyn_cast<SCEVSignExtendExpr>(S)) {
    const SCEV *B = Bound(Ext->getOperand(), Upper);
    return B ? SE.getSignExtendExpr(B, S->getType()) : nullptr;
  }
  if (auto *Ext = dyn_cast<SCEVZeroExtendExpr>(S)) {
    const SCEV *Lo = Bound(Ext->getOperand(), false);
    const SCEV *B = Bound(Ext->getOperand(), Upper);
    // Monotonic only while the operand stays non-negative.
    if (!Lo || !B || !NonNegative(Lo))
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

/// Whether emitPrivateShadowBound can emit \p S.
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

Value *emitPrivateShadowBound(const SCEV *S, IRBuilderBase &B,
                              ArrayRef<Value *> Args) {
  Type *Ty = S->getType();
  auto Op = [&](unsigned I) {
    return emitPrivateShadowBound(S->operands()[I], B, Args);
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
  case scUnknown: {
    Value *V = cast<SCEVUnknown>(S)->getValue();
    if (auto *Arg = dyn_cast<Argument>(V))
      return Args[Arg->getArgNo()];
    auto *L = cast<LoadInst>(V); // isEntryValue's load through a parameter
    return B.CreateLoad(
        L->getType(), Args[cast<Argument>(L->getPointerOperand())->getArgNo()]);
  }
  case scAddExpr:
    return Fold([&](Value *A, Value *C) { return B.CreateAdd(A, C); });
  case scMulExpr:
    return Fold([&](Value *A, Value *C) { return B.CreateMul(A, C); });
  case scSignExtend:
    return B.CreateSExt(Op(0), Ty);
  case scZeroExtend:
    return B.CreateZExt(Op(0), Ty);
  case scTruncate:
    return B.CreateTrunc(Op(0), Ty);
  case scUDivExpr:
    return B.CreateUDiv(Op(0), Op(1));
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

/// The loads through \p Base (directly or through address arithmetic), if
/// those are its only uses.
static bool collectLoads(const Value *Base, SmallVectorImpl<LoadInst *> &Out) {
  for (const User *U : Base->users()) {
    if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
      if (GEP->getPointerOperand() != Base || !collectLoads(GEP, Out))
        return false;
    } else if (auto *L = dyn_cast<LoadInst>(U);
               L && L->getPointerOperand() == Base && !L->isVolatile() &&
               L->getType()->getScalarType()->isFloatingPointTy()) {
      Out.push_back(const_cast<LoadInst *>(L));
    } else {
      return false;
    }
  }
  return true;
}

/// The range parameter \p Arg's captured pointer is loaded from, if it
/// qualifies (PrivateShadows.h).
static std::optional<PrivateShadow>
privateShadowOf(Argument &Arg, ScalarEvolution &SE, LoopInfo &LI) {
  if (!Arg.getType()->isPointerTy() || !onlyLoadedFrom(Arg))
    return std::nullopt;
  std::optional<PrivateShadow> P;
  for (User *U : Arg.users()) {
    auto *Base = cast<LoadInst>(U);
    SmallVector<LoadInst *, 8> Loads;
    if (!Base->getType()->isPointerTy() || !isEntryValue(Base) ||
        !collectLoads(Base, Loads))
      return std::nullopt;
    for (LoadInst *L : Loads) {
      const SCEV *Address = SE.getSCEV(L->getPointerOperand());
      if (SE.getPointerBase(Address) != SE.getSCEV(Base))
        return std::nullopt;
      const SCEV *Offset = SE.removePointerBase(Address);
      const Loop *Inner = LI.getLoopFor(L->getParent());
      const SCEV *Lo = bound(Offset, false, SE, Inner),
                 *Hi = bound(Offset, true, SE, Inner);
      Type *Element = L->getType()->getScalarType();
      if (!Lo || !Hi || !emittable(Lo) || !emittable(Hi) ||
          (P && P->Element != Element))
        return std::nullopt;
      Hi = SE.getAddExpr(
          Hi, SE.getConstant(Hi->getType(), L->getDataLayout().getTypeStoreSize(
                                                L->getType())));
      if (!P)
        P = PrivateShadow{Arg.getArgNo(), Lo, Hi, Element};
      else
        P->Low = SE.getSMinExpr(P->Low, Lo),
        P->High = SE.getSMaxExpr(P->High, Hi);
    }
  }
  return P;
}

SmallVector<PrivateShadow, 2>
privateShadows(Function &Body, ScalarEvolution &SE, LoopInfo &LI) {
  SmallVector<PrivateShadow, 2> Out;
  for (Argument &Arg : Body.args())
    if (Arg.getArgNo() >= RegionThreadIdParams && Arg.getArgNo() < 64)
      if (std::optional<PrivateShadow> P = privateShadowOf(Arg, SE, LI))
        Out.push_back(*P);
  return Out;
}

uint64_t privateShadowMask(ArrayRef<PrivateShadow> Shadows) {
  uint64_t Mask = 0;
  for (const PrivateShadow &P : Shadows)
    Mask |= uint64_t(1) << P.Arg;
  return Mask;
}

} // namespace ad
