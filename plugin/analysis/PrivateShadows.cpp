//===- PrivateShadows.cpp - Shadows a region's threads may keep apart -----===//
#include "analysis/PrivateShadows.h"
#include "analysis/RegionRanges.h"
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
  if (!Base->getType()->isPointerTy() || !isRegionEntryValue(Base) ||
      !collectLoads(Base, Loads))
    return false;
  for (LoadInst *L : Loads) {
    const SCEV *Address = SE.getSCEV(L->getPointerOperand());
    if (SE.getPointerBase(Address) != SE.getSCEV(const_cast<Value *>(Base)))
      return false;
    const SCEV *Offset = SE.removePointerBase(Address);
    std::optional<OffsetRange> Range =
        regionOffsetRange(Offset, SE, LI.getLoopFor(L->getParent()));
    Type *Element = L->getType()->getScalarType();
    if (!Range || (P && P->Element != Element))
      return false;
    const SCEV *Lo = Range->Lo, *Hi = Range->Hi;
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
  bool Direct =
      !isOnlyLoadedFrom(Arg) || any_of(Arg.users(), [](const User *U) {
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
