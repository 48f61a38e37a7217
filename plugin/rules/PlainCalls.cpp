//===- PlainCalls.cpp - Rows of calls to differentiate or to leave alone --===//
#include "rules/PlainCalls.h"
#include "rules/CallRows.h"
#include "rules/ShadowErrors.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/IRBuilder.h"
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
  // pointer into it; one that exchanges messages, what it received.
  bool AnyActive = A.accessesShadowedGlobals(Call) || A.exchangesMessages(Call),
       AnyShadow = AnyActive;
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

/// The last resort of a dispatched indirect call: the pointer names a
/// function the module does not know (one defined in another file), so its
/// derivative is unknown. Where no derivative reaches the call it runs as
/// the primal's; where one does, the derivative stops the program, before
/// the call, with a message that names the call: a derivative the plugin
/// cannot know is never silently wrong, and at compile time the pointer's
/// target is not known (the dispatch announced this with a remark). GPU
/// code has no such calls: only closed sets are dispatched there.
static bool unresolvedCallee(ShadowEmitter &E, CallBase &Call,
                             const CalleeInfo &) {
  // The call's result only reaches the dispatch's phi, which the direct
  // calls' results may make varied or shadowed (memory an allocator
  // returned): a derivative reaches the call through it too.
  bool ReachesResult = any_of(Call.users(), [&](const User *U) {
    return E.isVaried(U) || E.hasShadow(U);
  });
  if (!carriesDerivatives(E, Call) && !ReachesResult)
    return true;
  std::string Where = "an indirect call";
  if (const DebugLoc &Loc = Call.getDebugLoc())
    Where +=
        " at " + Loc->getFilename().str() + ":" + std::to_string(Loc.getLine());
  IRBuilder<> B(&E.clone(Call));
  E.Runtime.emitStop(B, "ADPlugin: the derivative reached " + Where +
                            " whose target is not defined in the module "
                            "that differentiated it; no derivative is known "
                            "for it\n");
  return true;
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
  {CalleeKind::Unresolved, Unknown, Writes, NotFresh, Unrelated,
     nullptr,                sameInForwardMode<unresolvedCallee>,
     unresolvedCallee,                               nullptr},
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
