//===- PrivateShadows.cpp - Shadows a region's threads may keep apart -----===//
#include "analysis/PrivateShadows.h"
#include "core/ParallelRegionCalls.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
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

/// The least (or greatest, \p Upper) value \p S takes over every
/// iteration of the loops it recurs in, over entry values; nullptr when
/// that cannot be told.
constexpr unsigned MaxBoundSize = 96;

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
  if (isa<SCEVConstant>(S))
    return S;
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    if (isEntryValue(U->getValue()))
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
        !NonNegative(SE.getMinusSCEV(YLo, SE.getOne(YLo->getType()))))
      return nullptr;
    if (Opcode == Instruction::SRem || Opcode == Instruction::URem)
      return Upper ? SE.getMinusSCEV(YLo, SE.getOne(YLo->getType()))
                   : SE.getZero(S->getType());
    const SCEV *XB = Upper ? Bound(X, true) : XLo;
    return XB ? SE.getUDivExpr(XB, YLo) : nullptr;
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
    const SCEV *Taken = SE.getBackedgeTakenCount(AR->getLoop());
    // A trip count that varies with an outer loop (a triangle) may pair
    // the largest start with the most trips although no iteration has
    // both: a looser bound, which costs buffer space only (the sum skips
    // what nobody read).
    if (isa<SCEVCouldNotCompute>(Taken) || !Bound(Step, false) ||
        Bound(Step, false) != Bound(Step, true))
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

/// The range the region loads from through pointer \p Base, merged into
/// \p P; false if it cannot be told.
static bool addRange(std::optional<PrivateShadow> &P, const Value *Base,
                     const Argument &Arg, bool Direct, ScalarEvolution &SE,
                     LoopInfo &LI) {
  SmallVector<LoadInst *, 8> Loads;
  if (!Base->getType()->isPointerTy() || !isEntryValue(Base) ||
      !collectLoads(Base, Loads))
    return false;
  for (LoadInst *L : Loads) {
    const SCEV *Address = SE.getSCEV(L->getPointerOperand());
    if (SE.getPointerBase(Address) != SE.getSCEV(const_cast<Value *>(Base)))
      return false;
    const SCEV *Offset = SE.removePointerBase(Address);
    const Loop *Inner = LI.getLoopFor(L->getParent());
    BoundCache Cache;
    const SCEV *Lo = bound(Offset, false, SE, Inner, Cache),
               *Hi = bound(Offset, true, SE, Inner, Cache);
    Type *Element = L->getType()->getScalarType();
    if (!Lo || !Hi || !emittable(Lo) || !emittable(Hi) ||
        (P && P->Element != Element))
      return false;
    Hi = SE.getAddExpr(
        Hi, SE.getConstant(Hi->getType(),
                           L->getDataLayout().getTypeStoreSize(L->getType())));
    if (!P)
      P = PrivateShadow{Arg.getArgNo(), Direct, Lo, Hi, Element};
    else
      P->Low = SE.getSMinExpr(P->Low, Lo),
      P->High = SE.getSMaxExpr(P->High, Hi);
  }
  return true;
}

/// The range parameter \p Arg's captured pointer is loaded from, if it
/// qualifies (PrivateShadows.h).
static std::optional<PrivateShadow>
privateShadowOf(Argument &Arg, ScalarEvolution &SE, LoopInfo &LI) {
  if (!Arg.getType()->isPointerTy() || Arg.use_empty())
    return std::nullopt;
  std::optional<PrivateShadow> P;
  // The pointer itself (passed by value), or the variable that holds it.
  bool Direct = !onlyLoadedFrom(Arg) || any_of(Arg.users(), [](const User *U) {
    return !U->getType()->isPointerTy();
  });
  if (Direct)
    return addRange(P, &Arg, Arg, true, SE, LI) ? P : std::nullopt;
  for (User *U : Arg.users())
    if (!addRange(P, U, Arg, false, SE, LI))
      return std::nullopt;
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
