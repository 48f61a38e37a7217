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
// mirrored place, with the primal's arguments. Forward mode and the forward
// sweep run the primal's barrier, which is enough: tangents move with the
// values. A barrier makes other threads' writes visible, so it counts as a
// write for the reload policies. Warp shuffles move values between the
// lanes of a warp; their adjoints move back (WarpShuffles.h).
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"
#include "rules/WarpShuffles.h"

using namespace llvm;

namespace ad {

static bool barrierAdjoint(AdjointEmitter &E, CallBase &Call,
                           const CalleeInfo &, Value *) {
  SmallVector<Value *, 2> Args;
  for (Use &U : Call.args()) {
    Value *A = E.primal(U);
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
  {CalleeKind::WarpShuffle,  ToResult, NoWrites, NotFresh,  Unrelated,
     shuffleActivity,        shuffleTangent,
     nullptr,                                        shuffleAdjoint},
};
// clang-format on

} // namespace

ArrayRef<CallRow> parallelCallRows() { return Rows; }

} // namespace ad
