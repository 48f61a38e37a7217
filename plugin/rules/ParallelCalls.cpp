//===- ParallelCalls.cpp - Rows of calls that synchronize threads ---------===//
//
// A barrier (CUDA's __syncthreads, an OpenMP barrier) orders the threads'
// memory accesses: what one thread wrote before it, the others may read
// after it. The reverse sweep runs the accesses backwards, and their adjoints
// move the other way (a read's adjoint is added to the shadow of what was
// read, a write's adjoint is taken from the shadow it wrote), so it needs the
// same order, mirrored: every thread must have added the adjoints of the
// reads after the barrier before any thread takes the adjoints of the writes
// before it. The reverse sweep therefore calls the barrier again at the
// mirrored place, with the primal's arguments (an OpenMP thread's id asked
// again: the reverse runs in another team). Forward mode and the forward
// sweep run the primal's barrier, which is enough: tangents move with the
// values. A barrier makes other threads' writes visible, so it counts as a
// write for the reload policies. Warp shuffles move values between the
// lanes of a warp; their adjoints move back (WarpShuffles.h).
//
// An OpenMP critical section runs its threads one at a time, in some
// order. Its reverse runs them one at a time in the reverse order: the
// canonical primal takes a ticket after the lock and marks the section's
// end with it (primal/ParallelRegions.h); the reverse sweep waits for its
// turn at the end and passes the turn on at the ticket
// (runtime/TeamRuntime.cpp). Forward mode needs no order (tangents move
// with the values under the primal's lock) and drops both.
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
#include "rules/WarpShuffles.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// libomp's entry points take (source location, global thread id, ...).
static bool takesOpenMPThreadId(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  return F && F->getName().starts_with("__kmpc_") && Call.arg_size() >= 2;
}

/// \p Call again in the reverse sweep, with the primal's arguments.
static bool callAgain(AdjointEmitter &E, CallBase &Call) {
  bool FreshThreadId = takesOpenMPThreadId(Call);
  SmallVector<Value *, 4> Args;
  for (Use &U : Call.args()) {
    Value *A = nullptr;
    if (FreshThreadId && U.getOperandNo() == 1)
      A = E.B.CreateCall(E.Runtime.ompGlobalThreadNum(), {Args[0]});
    else
      A = E.primal(U);
    if (!A)
      return false;
    Args.push_back(A);
  }
  CallInst *Again =
      E.B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
  Again->setAttributes(Call.getAttributes());
  Again->setCallingConv(Call.getCallingConv());
  return true;
}

static bool barrierAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &, Value *) {
  return callAgain(E, Call);
}

static bool isTicket(const CallBase &Call) {
  return Call.getCalledFunction()->getName() == "__ad_omp_ticket";
}

/// Forward mode keeps no turns: a ticket taken and never handed back
/// would stall the next reverse sweep's wait.
static bool turnTangent(TangentEmitter &E, CallBase &Call, const CalleeInfo &) {
  CallBase &Clone = E.clone(Call);
  if (isTicket(Call))
    Clone.replaceAllUsesWith(ConstantInt::get(Clone.getType(), 0));
  Clone.eraseFromParent();
  return true;
}

/// At the section's end, wait for the later sections' reverses; at its
/// ticket, let the earlier ones go.
static bool turnAdjoint(AdjointEmitter &E, CallBase &Call, const CalleeInfo &,
                        Value *) {
  Value *Turn = E.primal(Call.getArgOperand(0));
  Value *Ticket = E.primal(isTicket(Call) ? &Call : Call.getArgOperand(1));
  if (!Turn || !Ticket)
    return false;
  E.B.CreateCall(isTicket(Call) ? E.Runtime.teamPassTurn()
                                : E.Runtime.teamWaitTurn(),
                 {Turn, Ticket});
  return true;
}

/// A warp shuffle (WarpShuffles.h) varies with the value it moves.
static bool shuffleActivity(CallActivity &A, const CallBase &Call,
                            const CalleeInfo &) {
  return A.isVaried(Call.getArgOperand(1)) && A.markVaried(&Call);
}

/// The tangent moves between the lanes as the value does.
static bool shuffleTangent(TangentEmitter &E, CallBase &Call,
                           const CalleeInfo &) {
  if (!E.isVaried(&Call))
    return true;
  SmallVector<Value *, 4> Args;
  for (Use &U : Call.args())
    Args.push_back(U.getOperandNo() == 1 ? E.tangent(U) : E.primal(U));
  CallInst *T =
      E.B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
  T->setAttributes(Call.getAttributes());
  E.setTangent(Call, T);
  return true;
}

static bool shuffleAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &, Value *DY) {
  std::optional<WarpShuffle> S = warpShuffleOf(Call);
  if (!DY || !S)
    return true;
  Value *Mask = E.primal(Call.getArgOperand(0));
  Value *Lane = E.primal(Call.getArgOperand(2));
  Value *Width = E.primal(Call.getArgOperand(3));
  if (!Mask || !Lane || !Width)
    return false;
  E.addAdjoint(Call.getArgOperand(1),
               shuffleAdjoint(E.B, *S, Mask, Lane, Width, DY));
  return true;
}

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::Barrier,      Marker,   Writes,   NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        barrierAdjoint},
  {CalleeKind::TeamTurn,     Marker,   Writes,   NotFresh,  Unrelated,
     nullptr,                turnTangent,
     nullptr,                                        turnAdjoint},
  {CalleeKind::WarpShuffle,  ToResult, NoWrites, NotFresh,  Unrelated,
     shuffleActivity,        shuffleTangent,
     nullptr,                                        shuffleAdjoint},
};
// clang-format on

} // namespace

ArrayRef<CallRow> parallelCallRows() { return Rows; }

} // namespace ad
