//===- MemoryCalls.cpp - Rows of allocation and byte-wise memory calls ----===//
#include "rules/MemoryCalls.h"
#include "core/PrimalMarks.h"
#include "rules/CallRows.h"
#include "rules/ShadowErrors.h"
#include "runtime/RuntimeFunctions.h"
#include "support/Diagnostics.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"
#include <functional>

using namespace llvm;

namespace ad {

static bool freshMemoryActivity(CallActivity &A, const CallBase &Call,
                                const CalleeInfo &) {
  return A.markShadowed(&Call);
}

static bool allocationShadow(ShadowEmitter &E, CallBase &Call,
                             const CalleeInfo &Info) {
  const AllocationShape &S = *Info.Alloc;
  auto Arg = [&](int K) {
    return K < 0 ? nullptr : E.primal(Call.getArgOperand(K));
  };
  Value *Shadow = E.Runtime.allocateShadow(E.B, Arg(S.CountArg), Arg(S.SizeArg),
                                           Arg(S.AlignArg));
  E.setShadow(Call, Shadow);
  E.keepHeapShadow(Call, Shadow);
  return true;
}

/// posix_memalign(&p, ...): p's shadow, allocated alike, goes to the
/// shadow of &p (without one, p holds no derivatives: nothing to do).
static bool allocationOutShadow(ShadowEmitter &E, CallBase &Call,
                                const CalleeInfo &Info) {
  Value *Out = Call.getArgOperand(0);
  if (!E.hasShadow(Out))
    return true;
  Value *SO = E.shadow(Out, &Call);
  if (!SO)
    return false;
  const AllocationShape &S = *Info.Alloc;
  Value *Shadow = E.Runtime.allocateShadowOut(
      E.B, SO, E.primal(Call.getArgOperand(S.AlignArg)),
      E.primal(Call.getArgOperand(S.SizeArg)), E.primal(&Call));
  E.keepHeapShadow(Call, Shadow);
  return true;
}

static bool allocationAdjoint(AdjointEmitter &E, CallBase &Call,
                              const CalleeInfo &, Value *) {
  if (E.hasHeapShadow(Call))
    E.B.CreateCall(E.Runtime.free(), {E.shadow(&Call, &Call)});
  // The primal's free, deferred until now (primal/DeferredFrees.h): the
  // reverse sweep has read back what it needed from the memory.
  if (Function *FreeFn = E.defersFrees() ? freedInReverse(Call) : nullptr) {
    Value *P = E.primal(&Call);
    if (!P)
      return false;
    E.B.CreateCall(FreeFn, {P});
  }
  return true;
}

static bool reallocTangent(TangentEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  Value *Old = E.shadow(Call.getArgOperand(0), &Call);
  if (!Old)
    return false;
  Module &M = *E.B.GetInsertBlock()->getModule();
  FunctionCallee Realloc = M.getOrInsertFunction(
      "realloc", Call.getType(), Call.getType(), E.B.getInt64Ty());
  E.setShadow(Call,
              E.B.CreateCall(Realloc, {Old, E.primal(Call.getArgOperand(1))},
                             "shadow.realloc"));
  return true;
}

/// A fresh zeroed shadow holding a copy of the old shadow's bytes (the
/// pointer shadows it may hold); the old shadow stays alive for the reverse
/// sweep, which moves adjoints back into it.
static bool reallocForward(ShadowEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  IRBuilderBase &B = E.B;
  Value *Old = E.shadow(Call.getArgOperand(0), &Call);
  if (!Old)
    return false;
  Value *Size = E.primal(Call.getArgOperand(1));
  Value *New =
      B.CreateCall(E.Runtime.calloc(), {B.getInt64(1), Size}, "shadow.realloc");
  Value *OldSize = B.CreateCall(E.Runtime.mallocUsableSize(), {Old});
  Value *Keep = B.CreateBinaryIntrinsic(Intrinsic::umin, OldSize, Size);
  B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(), Keep);
  E.setShadow(Call, New);
  E.keepHeapShadow(Call, New);
  return true;
}

static bool reallocAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &, Value *) {
  IRBuilderBase &B = E.B;
  Value *New = E.shadow(&Call, &Call);
  Value *Old = E.shadow(Call.getArgOperand(0), &Call);
  if (!New || !Old)
    return false;
  std::optional<MemoryLayout> Layout = E.layoutOfReallocation(Call);
  if (!Layout) {
    E.Diag.error(&Call,
                 "cannot tell which bytes of this reallocated memory hold "
                 "floating-point data",
                 "access the buffer through a typed pointer");
    return false;
  }
  if (!Layout->Floats.empty()) {
    Value *Size = E.primal(Call.getArgOperand(1));
    Value *OldSize = B.CreateCall(E.Runtime.mallocUsableSize(), {Old});
    Value *Kept = B.CreateBinaryIntrinsic(Intrinsic::umin, OldSize, Size);
    Value *Count = B.CreateUDiv(Kept, B.getInt64(Layout->Stride));
    for (const FloatField &F : Layout->Floats)
      B.CreateCall(E.Runtime.memcpyAdjoint(F.Ty),
                   {B.CreateConstGEP1_64(B.getInt8Ty(), Old, F.Offset),
                    B.CreateConstGEP1_64(B.getInt8Ty(), New, F.Offset), Count,
                    B.getInt64(Layout->Stride)});
  }
  B.CreateCall(E.Runtime.free(), {New});
  return true;
}

/// Forward mode frees the shadow with the memory. (Reverse mode keeps the
/// primal memory's shadow until the reverse sweep reaches its allocation.)
/// A gradient frees what its reverse sweep may still read where that sweep
/// reaches the allocation (primal/DeferredFrees.h), not here.
static bool freeForward(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  if (E.defersFrees() && isDeferredFree(Call))
    E.clone(Call).eraseFromParent();
  return true;
}

static bool freeTangent(TangentEmitter &E, CallBase &Call, const CalleeInfo &) {
  Value *Ptr = Call.getArgOperand(0);
  if (!E.hasShadow(Ptr))
    return true;
  Value *S = E.shadow(Ptr, &Call);
  if (!S)
    return false;
  E.B.CreateCall(E.Runtime.free(), {S});
  return true;
}

static bool memCopyActivity(CallActivity &A, const CallBase &Call,
                            const CalleeInfo &) {
  return A.hasShadow(Call.getArgOperand(1)) &&
         A.shadowLocalMemory(Call.getArgOperand(0));
}

static bool memCopyTangent(TangentEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
  bool DstS = E.hasShadow(Dst),
       SrcS = E.hasShadow(Src) || E.hasConstantShadow(Src);
  if (DstS && SrcS) {
    auto *Copy = cast<CallBase>(E.clone(Call).clone());
    Copy->setArgOperand(0, E.shadow(Dst, &Call));
    Copy->setArgOperand(1, E.shadow(Src, &Call));
    E.B.Insert(Copy);
  } else if (DstS) {
    E.B.CreateMemSet(E.shadow(Dst, &Call), E.B.getInt8(0),
                     E.primal(Call.getArgOperand(2)), MaybeAlign());
  } else if (E.hasShadow(Src)) {
    // (A read-only global's constant shadow holds no derivative: copying
    // from it into memory without a shadow, a string literal into a
    // character buffer, loses nothing.)
    std::optional<MemoryLayout> Layout = E.layoutOfCopy(Call);
    if (!Layout || !Layout->Floats.empty()) {
      reportCopyWithoutShadow(E.Diag, Call);
      return false;
    }
  }
  return true;
}

/// \p Src points into a read-only global whose contents include pointers
/// (a constant table of structures), not plain data (a string literal).
static bool constantWithPointers(const CallEmitter &E, const Value *Src) {
  if (!E.hasConstantShadow(Src))
    return false;
  auto *GV = cast<GlobalVariable>(getUnderlyingObject(Src));
  std::function<bool(Type *)> HasPointer = [&](Type *T) {
    if (T->isPtrOrPtrVectorTy())
      return true;
    if (auto *ST = dyn_cast<StructType>(T))
      return any_of(ST->elements(), HasPointer);
    if (auto *AT = dyn_cast<ArrayType>(T))
      return HasPointer(AT->getElementType());
    return false;
  };
  return HasPointer(GV->getValueType());
}

static bool memCopyForward(ShadowEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  IRBuilderBase &B = E.B;
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
  bool DstS = E.hasShadow(Dst),
       SrcS = E.hasShadow(Src) || E.hasConstantShadow(Src);
  // A read-only global's constant shadow holds no derivative: copying from
  // it into memory without a shadow (a string literal into a character
  // buffer) loses nothing.
  if (!DstS && !E.hasShadow(Src))
    return true;
  // Nor does copying from it into differentiated memory need anything now
  // (the reverse sweep clears the destination's adjoint), unless the
  // constant holds pointers, whose shadows are copied along.
  if (!E.hasShadow(Src) && !constantWithPointers(E, Src))
    return true;
  std::optional<MemoryLayout> Layout = E.layoutOfCopy(Call);
  if (!Layout) {
    E.Diag.error(&Call,
                 "cannot tell which bytes of this memory copy hold "
                 "floating-point data (nothing types its destination, " +
                     E.Diag.describe(*getUnderlyingObject(Dst)) +
                     ", or its source, " +
                     E.Diag.describe(*getUnderlyingObject(Src)) + ")",
                 "copy typed elements (assign or index) instead of raw "
                 "bytes, or pass typed pointers");
    return false;
  }
  if (!DstS) {
    if (Layout->Floats.empty())
      return true;
    reportCopyWithoutShadow(E.Diag, Call);
    return false;
  }
  if (SrcS && Layout->HasPointers) {
    // Only the pointers' shadows: where the floats are, the destination's
    // shadow may hold an output's seed, which the reverse sweep moves.
    Value *SD = E.shadow(Dst, &Call), *SS = E.shadow(Src, &Call);
    if (!SD || !SS)
      return false;
    Value *Len =
        B.CreateZExtOrTrunc(E.primal(Call.getArgOperand(2)), B.getInt64Ty());
    Value *Count = B.CreateUDiv(Len, B.getInt64(Layout->Stride));
    for (const FloatField &F : Layout->Others)
      B.CreateCall(E.Runtime.memcpyPointers(),
                   {B.CreateConstGEP1_64(B.getInt8Ty(), SS, F.Offset),
                    B.CreateConstGEP1_64(B.getInt8Ty(), SD, F.Offset), Count,
                    B.getInt64(Layout->Stride)});
  }
  return true;
}

static bool memCopyAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &, Value *) {
  IRBuilderBase &B = E.B;
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
  if (!E.hasShadow(Dst))
    return true;
  Value *SD = E.shadow(Dst, &Call);
  if (!SD)
    return false;
  Value *Len = E.primal(Call.getArgOperand(2));
  if (!E.hasShadow(Src)) {
    // Constant data overwrote the destination.
    B.CreateMemSet(SD, B.getInt8(0), Len, MaybeAlign());
    return true;
  }
  Value *SS = E.shadow(Src, &Call);
  if (!SS)
    return false;
  // The forward sweep checked that the layout is known.
  std::optional<MemoryLayout> Layout = E.layoutOfCopy(Call);
  Value *Count = B.CreateUDiv(B.CreateZExtOrTrunc(Len, B.getInt64Ty()),
                              B.getInt64(Layout->Stride));
  for (const FloatField &F : Layout->Floats)
    B.CreateCall(E.Runtime.memcpyAdjoint(F.Ty),
                 {B.CreateConstGEP1_64(B.getInt8Ty(), SS, F.Offset),
                  B.CreateConstGEP1_64(B.getInt8Ty(), SD, F.Offset), Count,
                  B.getInt64(Layout->Stride)});
  return true;
}

static bool memSetTangent(TangentEmitter &E, CallBase &Call,
                          const CalleeInfo &) {
  Value *Dst = Call.getArgOperand(0);
  if (E.hasShadow(Dst))
    E.B.CreateMemSet(E.shadow(Dst, &Call), E.B.getInt8(0),
                     E.primal(Call.getArgOperand(2)), MaybeAlign());
  return true;
}

static bool memSetAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &,
                          Value *) {
  Value *Dst = Call.getArgOperand(0);
  if (!E.hasShadow(Dst))
    return true;
  Value *SD = E.shadow(Dst, &Call);
  if (!SD)
    return false;
  E.B.CreateMemSet(SD, E.B.getInt8(0), E.primal(Call.getArgOperand(2)),
                   MaybeAlign());
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::Malloc,       Anywhere, Writes,   Fresh,     Unrelated,
     freshMemoryActivity,    sameInForwardMode<allocationShadow>,
     allocationShadow,                               allocationAdjoint},
  {CalleeKind::Calloc,       Anywhere, Writes,   Fresh,     Unrelated,
     freshMemoryActivity,    sameInForwardMode<allocationShadow>,
     allocationShadow,                               allocationAdjoint},
  {CalleeKind::AllocOut,     Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<allocationOutShadow>,
     allocationOutShadow,                            allocationAdjoint},
  {CalleeKind::Realloc,      Anywhere, Writes,   Fresh,
     PointerRelation::ResultContinuesFirst,
     freshMemoryActivity,    reallocTangent,
     reallocForward,                                 reallocAdjoint},
  {CalleeKind::Free,         Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                freeTangent,
     freeForward,                                    nullptr},
  {CalleeKind::MemCopy,      Anywhere, Writes,   NotFresh,
     PointerRelation::CopiesSecondToFirst,
     memCopyActivity,        memCopyTangent,
     memCopyForward,                                 memCopyAdjoint},
  {CalleeKind::MemSet,       Anywhere, Writes,   NotFresh,  Unrelated,
     nullptr,                memSetTangent,
     nullptr,                                        memSetAdjoint}
};
// clang-format on

} // namespace

ArrayRef<CallRow> memoryCallRows() { return Rows; }

} // namespace ad
