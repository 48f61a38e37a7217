//===- MessageCalls.cpp - The row of MPI operations -----------------------===//
//
// The canonical primal calls the run-time support's wrapper of each MPI
// operation (MessagePassing.h), with a null shadow for each buffer. The row:
//   - activity: a buffer the call receives into holds data another rank
//     computed from its active inputs, so local memory received into gets a
//     shadow (and what is loaded from it is varied), whether or not anything
//     local flows into the call;
//   - forward sweep: the clone gets the buffers' shadows; its record is
//     taped like any primal value;
//   - reverse sweep: __ad_mpi_reverse(record), which sends adjoints back
//     (or reduces them) and adds them into the shadows;
//   - forward mode: the tangent wrapper, with the shadows holding tangents.
// A buffer without a shadow passes null: the run-time support then sends
// zeros and drops what it receives, so that the messages of the two sides
// still match (another rank's buffer may have a shadow where this one has
// none). The call is a root of what the derivative needs (it may store
// derivatives anywhere): its messages happen whether or not this rank's
// data is active.
//
// What can be told at compile time is an error here: a reduction other
// than MPI_SUM, MPI_MAX, MPI_MIN of floating-point data, and differentiated
// data sent as a type that carries no derivative the plugin can move (bytes,
// complex numbers, long double). The run-time support checks what is only
// known when it runs (a datatype built at run time).
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
#include "rules/MessagePassing.h"
#include "runtime/MessageRuntime.h"
#include "support/Diagnostics.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

bool isSupportedReduction(const Value *Op) {
  std::optional<StringRef> Name = predefinedHandleName(Op, "ompi_mpi_op_");
  if (!Name)
    return true; // A user's operation is refused when it runs.
  return *Name == "sum" || *Name == "max" || *Name == "min";
}

/// Reports what the plugin can tell cannot be differentiated; false then.
bool checkOperation(CallEmitter &E, CallBase &Call,
                    const MessageOperation &Op) {
  bool AnyShadow = false, AnyFloating = false;
  for (unsigned K = 0; K < Op.bufferCount(); ++K) {
    Value *Buf = Call.getArgOperand(Op.Buffers[K]);
    Value *Type = Call.getArgOperand(Op.Datatypes[K]);
    MessageDatatype Class = classifyMessageDatatype(Type);
    AnyFloating |= Class == MessageDatatype::Floating;
    // Local memory and mutable globals received into have shadows: this is
    // an __ad_const argument, or memory nothing tracks.
    if (Op.Received[K] && !E.hasShadow(Buf) && !isa<Constant>(Buf) &&
        mayHoldFloats(Class)) {
      E.Diag.error(&Call,
                   Twine(Op.Name) +
                       " receives into memory that has no shadow (" +
                       E.Diag.describe(*Buf) +
                       "), so the derivatives that arrive there would be lost",
                   "receive into local memory, or pass this memory as "
                   "__ad_dup");
      return false;
    }
    if (!E.hasShadow(Buf))
      continue;
    AnyShadow = true;
    if (Class == MessageDatatype::Unsupported) {
      E.Diag.error(&Call,
                   Twine(Op.Name) + " moves differentiated data as MPI type '" +
                       *predefinedHandleName(Type, "ompi_mpi_") +
                       "', whose derivative the plugin cannot move",
                   "send floating-point data as MPI_DOUBLE or MPI_FLOAT");
      return false;
    }
  }
  if (Op.Reduction >= 0 && AnyShadow && AnyFloating &&
      !isSupportedReduction(Call.getArgOperand(Op.Reduction))) {
    E.Diag.error(&Call,
                 Twine(Op.Name) + " with operation '" +
                     *predefinedHandleName(Call.getArgOperand(Op.Reduction),
                                           "ompi_mpi_op_") +
                     "' on differentiated data is not differentiated",
                 "reduce floating-point data with MPI_SUM, MPI_MAX or MPI_MIN");
    return false;
  }
  return true;
}

/// Gives \p Clone (the wrapper's call in the derivative) the shadows of
/// \p Call's buffers, null where a buffer has none.
bool passShadows(ShadowEmitter &E, CallBase &Call, CallBase &Clone,
                 const MessageOperation &Op) {
  unsigned First = Call.arg_size() - Op.bufferCount();
  for (unsigned K = 0; K < Op.bufferCount(); ++K) {
    Value *Buf = Call.getArgOperand(Op.Buffers[K]);
    Value *Shadow = ConstantPointerNull::get(
        cast<PointerType>(Clone.getArgOperand(First + K)->getType()));
    if (E.hasShadow(Buf)) {
      Shadow = E.shadow(Buf, &Call);
      if (!Shadow)
        return false;
    }
    Clone.setArgOperand(First + K, Shadow);
  }
  return true;
}

bool messageActivity(CallActivity &A, const CallBase &Call,
                     const CalleeInfo &Info) {
  const MessageOperation &Op = *Info.Message;
  bool Changed = false;
  for (unsigned K = 0; K < Op.bufferCount(); ++K)
    if (Op.Received[K])
      Changed |= A.shadowLocalMemory(Call.getArgOperand(Op.Buffers[K]));
  return Changed;
}

bool messageForward(ShadowEmitter &E, CallBase &Call, const CalleeInfo &Info) {
  return checkOperation(E, Call, *Info.Message) &&
         passShadows(E, Call, E.clone(Call), *Info.Message);
}

bool messageTangent(TangentEmitter &E, CallBase &Call, const CalleeInfo &Info) {
  const MessageOperation &Op = *Info.Message;
  CallBase &Clone = E.clone(Call);
  if (!checkOperation(E, Call, Op) || !passShadows(E, Call, Clone, Op))
    return false;
  Module &M = *Clone.getModule();
  Clone.setCalledFunction(
      M.getOrInsertFunction(Op.Tangent, Clone.getFunctionType()));
  return true;
}

bool messageAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &,
                    Value *) {
  Value *Record = E.primal(&Call);
  if (!Record)
    return false;
  Module &M = *E.B.GetInsertBlock()->getModule();
  FunctionCallee Reverse = M.getOrInsertFunction(
      MessageReverseName, E.B.getVoidTy(), E.B.getPtrTy());
  E.B.CreateCall(Reverse, {Record});
  return true;
}

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::Message,      Anywhere, Writes,   NotFresh,  Unrelated,
     messageActivity,        messageTangent,
     messageForward,                                 messageAdjoint},
};
// clang-format on

} // namespace

ArrayRef<CallRow> messageCallRows() { return Rows; }

} // namespace ad
