//===- MemoryCalls.cpp - Rows of allocation and byte-wise memory calls ----===//
#include "rules/MemoryCalls.h"
#include "core/PrimalMarks.h"
#include "rules/CallRows.h"
#include "rules/HeapEscape.h"
#include "rules/RustAllocator.h"
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

/// The Rust allocator function of \p Call's family that does \p Op
/// (rules/RustAllocator.h); a null callee, after an error, if \p Call's
/// callee has no name to find it by.
static FunctionCallee rustAllocator(CallEmitter &E, CallBase &Call,
                                    RustAllocatorOp Op) {
  Function *F = calledFunction(Call);
  FunctionCallee Sibling =
      F ? rustAllocatorFunction(*F->getParent(), F->getName(), Op)
        : FunctionCallee();
  if (!Sibling)
    E.Diag.error(&Call,
                 "cannot tell which Rust allocator this call goes through, "
                 "to allocate or free its shadow alike",
                 "call the allocator directly, not through a pointer");
  return Sibling;
}

/// A zeroed block of \p Size bytes aligned to \p Align from \p Alloc, a
/// Rust allocator function of (size, align) (__rust_alloc: not zeroed).
static Value *rustZeroedBlock(IRBuilderBase &B, FunctionCallee Alloc,
                              Value *Size, Value *Align, bool Zeroed) {
  Type *I64 = B.getInt64Ty();
  Size = B.CreateZExtOrTrunc(Size, I64);
  Value *Block = B.CreateCall(Alloc, {Size, B.CreateZExtOrTrunc(Align, I64)},
                              "shadow.alloc");
  if (!Zeroed)
    B.CreateMemSet(Block, B.getInt8(0), Size, MaybeAlign());
  return Block;
}

/// Frees \p Shadow, a block of \p Size bytes aligned to \p Align, with the
/// Rust allocator family of \p Call; false after an error.
static bool rustDeallocate(CallEmitter &E, CallBase &Call, Value *Shadow,
                           Value *Size, Value *Align) {
  FunctionCallee Dealloc = rustAllocator(E, Call, RustAllocatorOp::Dealloc);
  if (!Dealloc)
    return false;
  Type *I64 = E.B.getInt64Ty();
  E.B.CreateCall(Dealloc, {Shadow, E.B.CreateZExtOrTrunc(Size, I64),
                           E.B.CreateZExtOrTrunc(Align, I64)});
  return true;
}

static bool allocationShadow(ShadowEmitter &E, CallBase &Call,
                             const CalleeInfo &Info) {
  const AllocationShape &S = *Info.Alloc;
  auto Arg = [&](int K) {
    return K < 0 ? nullptr : E.primal(Call.getArgOperand(K));
  };
  // Rust's shadow comes from the very function the primal calls, with the
  // same size and alignment: the allocator that frees it is Rust's too.
  Value *Shadow =
      S.RustAllocator
          ? rustZeroedBlock(E.B,
                            FunctionCallee(Call.getFunctionType(),
                                           E.primal(Call.getCalledOperand())),
                            Arg(S.SizeArg), Arg(S.AlignArg),
                            Info.Kind == CalleeKind::Calloc)
          : E.Runtime.allocateShadow(E.B, Arg(S.CountArg), Arg(S.SizeArg),
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
                              const CalleeInfo &Info, Value *) {
  // Memory the function hands to its caller keeps its shadow, which the
  // caller's shadow now points at (rules/HeapEscape.h).
  bool KeepShadow = E.defersFrees() && handedToCaller(Call);
  if (E.hasHeapShadow(Call) && !KeepShadow) {
    const AllocationShape *S = Info.Alloc;
    if (S && S->RustAllocator) {
      if (!rustDeallocate(E, Call, E.shadow(&Call, &Call),
                          E.primal(Call.getArgOperand(S->SizeArg)),
                          E.primal(Call.getArgOperand(S->AlignArg))))
        return false;
    } else {
      E.B.CreateCall(E.Runtime.free(), {E.shadow(&Call, &Call)});
    }
  }
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

/// realloc(ptr, size) unless the row says otherwise (KnownFunctions.h).
static const AllocationShape &reallocShape(const CalleeInfo &Info) {
  static constexpr AllocationShape CRealloc{/*Size=*/1};
  return Info.Alloc ? *Info.Alloc : CRealloc;
}

/// How many bytes of the old block a reallocation keeps: the smaller of the
/// new size and the old one, which Rust's realloc is told and C's is not
/// (then the old shadow's usable size, at least the primal's old size; the
/// bytes past it are zero).
static Value *keptBytes(IRBuilderBase &B, CallEmitter &E, const CallBase &Call,
                        const AllocationShape &S, Value *OldShadow) {
  Value *Size = B.CreateZExtOrTrunc(E.primal(Call.getArgOperand(S.SizeArg)),
                                    B.getInt64Ty());
  Value *OldSize =
      S.OldSizeArg >= 0
          ? B.CreateZExtOrTrunc(E.primal(Call.getArgOperand(S.OldSizeArg)),
                                B.getInt64Ty())
          : static_cast<Value *>(
                B.CreateCall(E.Runtime.mallocUsableSize(), {OldShadow}));
  return B.CreateBinaryIntrinsic(Intrinsic::umin, OldSize, Size);
}

/// C's realloc reallocates the shadow alike, and so does Rust's, through
/// the primal's own function and arguments (the bytes it adds are zeroed).
/// Another aligned allocator's shadow came from an aligned allocation,
/// which realloc need not keep aligned: a fresh one takes the kept
/// tangents, and the old one is freed.
static bool reallocTangent(TangentEmitter &E, CallBase &Call,
                           const CalleeInfo &Info) {
  IRBuilderBase &B = E.B;
  const AllocationShape &S = reallocShape(Info);
  Value *Old = E.shadow(Call.getArgOperand(0), &Call);
  if (!Old)
    return false;
  Value *Size = E.primal(Call.getArgOperand(S.SizeArg));
  if (S.RustAllocator) {
    Value *Kept = keptBytes(B, E, Call, S, Old);
    SmallVector<Value *, 4> Args;
    for (Use &U : Call.args())
      Args.push_back(E.primal(U.get()));
    Args[0] = Old;
    Value *New =
        B.CreateCall(Call.getFunctionType(), E.primal(Call.getCalledOperand()),
                     Args, "shadow.realloc");
    Value *Size64 = B.CreateZExtOrTrunc(Size, B.getInt64Ty());
    B.CreateMemSet(B.CreateGEP(B.getInt8Ty(), New, Kept), B.getInt8(0),
                   B.CreateSub(Size64, Kept), MaybeAlign());
    E.setShadow(Call, New);
    return true;
  }
  if (S.AlignArg < 0) {
    Module &M = *B.GetInsertBlock()->getModule();
    FunctionCallee Realloc = M.getOrInsertFunction(
        "realloc", Call.getType(), Call.getType(), B.getInt64Ty());
    E.setShadow(Call, B.CreateCall(Realloc, {Old, Size}, "shadow.realloc"));
    return true;
  }
  Value *New = E.Runtime.allocateShadow(
      B, nullptr, Size, E.primal(Call.getArgOperand(S.AlignArg)));
  B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(),
                 keptBytes(B, E, Call, S, Old));
  B.CreateCall(E.Runtime.free(), {Old});
  E.setShadow(Call, New);
  return true;
}

/// A fresh zeroed shadow holding a copy of the old shadow's bytes (the
/// pointer shadows it may hold); the old shadow stays alive for the reverse
/// sweep, which moves adjoints back into it.
static bool reallocForward(ShadowEmitter &E, CallBase &Call,
                           const CalleeInfo &Info) {
  IRBuilderBase &B = E.B;
  const AllocationShape &S = reallocShape(Info);
  Value *Old = E.shadow(Call.getArgOperand(0), &Call);
  if (!Old)
    return false;
  Value *Size = E.primal(Call.getArgOperand(S.SizeArg));
  Value *Align =
      S.AlignArg < 0 ? nullptr : E.primal(Call.getArgOperand(S.AlignArg));
  Value *New;
  if (S.RustAllocator) {
    // The old shadow stays (see above), so the shadow cannot be grown by
    // the primal's realloc: a fresh block from the same allocator family.
    FunctionCallee Alloc = rustAllocator(E, Call, RustAllocatorOp::Alloc);
    if (!Alloc)
      return false;
    New = rustZeroedBlock(B, Alloc, Size, Align, /*Zeroed=*/false);
  } else {
    New = E.Runtime.allocateShadow(B, nullptr, Size, Align);
  }
  New->setName("shadow.realloc");
  B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(),
                 keptBytes(B, E, Call, S, Old));
  E.setShadow(Call, New);
  E.keepHeapShadow(Call, New);
  return true;
}

static bool reallocAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &Info, Value *) {
  IRBuilderBase &B = E.B;
  Value *New = E.shadow(&Call, &Call);
  Value *Old = E.shadow(Call.getArgOperand(0), &Call);
  if (!New || !Old)
    return false;
  const AllocationShape &S = reallocShape(Info);
  std::optional<MemoryLayout> Layout = E.layoutOfReallocation(Call);
  if (!Layout && S.OldSizeArg < 0) {
    E.Diag.error(&Call,
                 "cannot tell which bytes of this reallocated memory hold "
                 "floating-point data",
                 "access the buffer through a typed pointer");
    return false;
  }
  // The caller's shadow points at the new shadow, and the adjoints of what
  // the old block held stay in the old one, which the caller no longer sees.
  if (E.defersFrees() && handedToCaller(Call)) {
    E.Diag.error(&Call,
                 "memory reallocated here is the caller's after the call "
                 "(its address is stored where the caller sees it), which "
                 "reverse mode does not support",
                 "reserve the final size before the call, or use forward "
                 "mode (__ad_fwddiff)");
    return false;
  }
  if (!Layout && S.OldSizeArg >= 0) {
    // Rust's Vec grows in a function that sees bytes only (RawVecInner's
    // finish_grow); the elements are typed in its callers. The old block
    // is freed by the call, so nothing after it added adjoints to the old
    // shadow: its floats hold zero, and the new shadow's kept bytes, copied
    // back whole, are the adjoints they must receive (and the pointer
    // shadows the forward sweep copied).
    B.CreateMemCpy(Old, MaybeAlign(), New, MaybeAlign(),
                   keptBytes(B, E, Call, S, Old));
    return rustDeallocate(E, Call, New, E.primal(Call.getArgOperand(S.SizeArg)),
                          E.primal(Call.getArgOperand(S.AlignArg)));
  }
  if (!Layout->Floats.empty()) {
    Value *Kept = keptBytes(B, E, Call, S, Old);
    Value *Count = B.CreateUDiv(Kept, B.getInt64(Layout->Stride));
    for (const FloatField &F : Layout->Floats)
      B.CreateCall(E.Runtime.memcpyAdjoint(F.Ty),
                   {B.CreateConstGEP1_64(B.getInt8Ty(), Old, F.Offset),
                    B.CreateConstGEP1_64(B.getInt8Ty(), New, F.Offset), Count,
                    B.getInt64(Layout->Stride)});
  }
  if (S.RustAllocator)
    return rustDeallocate(E, Call, New, E.primal(Call.getArgOperand(S.SizeArg)),
                          E.primal(Call.getArgOperand(S.AlignArg)));
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

static bool freeTangent(TangentEmitter &E, CallBase &Call,
                        const CalleeInfo &Info) {
  Value *Ptr = Call.getArgOperand(0);
  if (!E.hasShadow(Ptr))
    return true;
  Value *S = E.shadow(Ptr, &Call);
  if (!S)
    return false;
  if (Info.Alloc && Info.Alloc->RustAllocator) {
    // __rust_dealloc(ptr, size, align): the shadow alike.
    SmallVector<Value *, 3> Args;
    for (Use &U : Call.args())
      Args.push_back(E.primal(U.get()));
    Args[0] = S;
    E.B.CreateCall(Call.getFunctionType(), E.primal(Call.getCalledOperand()),
                   Args);
    return true;
  }
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
