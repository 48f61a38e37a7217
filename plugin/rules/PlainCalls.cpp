//===- PlainCalls.cpp - Rows of calls to differentiate or to leave alone --===//
#include "rules/PlainCalls.h"
#include "rules/CallRows.h"
#include "rules/ShadowErrors.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {

static bool returnsFreshMemory(const Function &F, unsigned Depth);

/// \p V is memory just allocated (a malloc-like call, a defined function
/// that returns such memory, or null), through casts, phis and selects, and
/// through a local slot at -O0 (`retval`) that only such values are stored in.
static bool isFreshMemory(const Value *V, unsigned Depth,
                          SmallPtrSetImpl<const Value *> &Seen) {
  V = V->stripPointerCasts();
  if (isa<ConstantPointerNull>(V) || !Seen.insert(V).second)
    return true;
  if (Seen.size() > 32)
    return false;
  if (auto *Call = dyn_cast<CallBase>(V)) {
    const CallRow &Row = rowOf(*Call);
    if (Row.ReturnsFreshMemory && Row.Kind != CalleeKind::Realloc)
      return true;
    const Function *Callee = Call->getCalledFunction();
    return differentiatesCallee(Row) && Callee &&
           returnsFreshMemory(*Callee, Depth + 1);
  }
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [&](const Value *In) {
      return isFreshMemory(In, Depth, Seen);
    });
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return isFreshMemory(Sel->getTrueValue(), Depth, Seen) &&
           isFreshMemory(Sel->getFalseValue(), Depth, Seen);
  if (auto *Ld = dyn_cast<LoadInst>(V)) {
    auto *Slot = dyn_cast<AllocaInst>(Ld->getPointerOperand());
    if (!Slot)
      return false;
    for (const User *U : Slot->users()) {
      if (auto *St = dyn_cast<StoreInst>(U)) {
        if (St->getPointerOperand() != Slot ||
            !isFreshMemory(St->getValueOperand(), Depth, Seen))
          return false;
      } else if (!isa<LoadInst>(U) &&
                 !(isa<IntrinsicInst>(U) &&
                   cast<IntrinsicInst>(U)->isLifetimeStartOrEnd())) {
        return false;
      }
    }
    return true;
  }
  return false;
}

/// Every value \p F returns is memory it just allocated: a caller may write
/// derivatives into it like into malloc's (an allocation wrapper that is not
/// inlined, as at -O0).
static bool returnsFreshMemory(const Function &F, unsigned Depth) {
  if (Depth > 4 || F.isDeclaration() || !F.getReturnType()->isPointerTy())
    return false;
  SmallPtrSet<const Value *, 8> Seen;
  bool Any = false;
  for (const BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      if (!isFreshMemory(Ret->getReturnValue(), Depth, Seen))
        return false;
      Any = true;
    }
  return Any;
}

static bool definedActivity(CallActivity &A, const CallBase &Call,
                            const CalleeInfo &) {
  // A callee that reads a shadowed global may return what it read, or a
  // pointer into it.
  bool AnyActive = A.accessesShadowedGlobals(Call), AnyShadow = AnyActive;
  for (const Use &U : Call.args()) {
    AnyActive |= A.isVaried(U) || A.hasShadow(U) || A.movesPointerBits(U);
    AnyShadow |= A.hasShadow(U) || A.movesPointerBits(U);
  }
  // Memory an allocation wrapper returns gets a shadow, as malloc's does.
  const Function *Callee = Call.getCalledFunction();
  AnyShadow |= Callee && returnsFreshMemory(*Callee, 0);
  bool Changed = AnyActive && A.markVaried(&Call);
  Changed |= AnyShadow && A.markShadowed(&Call);
  // A callee given derivatives may write them into any memory it is given
  // (a double's bits into a caller's `long`): local memory passed along
  // gets a shadow too.
  if (AnyActive)
    for (const Use &U : Call.args())
      Changed |= A.shadowLocalMemory(U);
  return Changed;
}

static bool definedCall(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  return E.callDerivativeOfCallee(Call);
}

static bool definedAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &, Value *) {
  return E.callDerivativeOfCallee(Call);
}

/// Whether a derivative or a shadow reaches \p Call, in or out.
static bool carriesDerivatives(const CallEmitter &E, const CallBase &Call) {
  bool Active = E.isVaried(&Call) || E.hasShadow(&Call);
  for (const Use &U : Call.args())
    Active |= E.isVaried(U) || E.hasShadow(U);
  return Active;
}

static bool unknownCall(ShadowEmitter &E, CallBase &Call, const CalleeInfo &) {
  if (!carriesDerivatives(E, Call))
    return true;
  reportUnknownCall(E.Diag, Call);
  return false;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::NoEffect,     Marker,   NoWrites, NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        nullptr},
  {CalleeKind::Inactive,     Inactive, Writes,   NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        nullptr},
  {CalleeKind::Defined,      Anywhere, Writes,   NotFresh,  Unrelated,
     definedActivity,        sameInForwardMode<definedCall>,
     definedCall,                                    definedAdjoint},
  {CalleeKind::Unknown,      Unknown,  Writes,   NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<unknownCall>,
     unknownCall,                                    nullptr},
  // signgam is an int and errno libc's: no floating-point value the
  // reverse sweep might read back changes.
  {CalleeKind::LibraryState, Unknown,  NoWrites, NotFresh,  Unrelated,
     nullptr,                sameInForwardMode<unknownCall>,
     unknownCall,                                    nullptr}
};
// clang-format on

} // namespace

ArrayRef<CallRow> plainCallRows() { return Rows; }

} // namespace ad
