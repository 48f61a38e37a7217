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
// write for the reload policies.
//
//===----------------------------------------------------------------------===//
#include "rules/CallRows.h"

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

namespace {

using namespace columns;

// CallRow's fields, in order: Kind, Flow, Memory, Result, Pointers; then
// Activity, Tangent (forward mode); then Forward (forward sweep), Adjoint.
// clang-format off
const CallRow Rows[] = {
  {CalleeKind::Barrier,      Marker,   Writes,   NotFresh,  Unrelated,
     nullptr,                nullptr,
     nullptr,                                        barrierAdjoint},
};
// clang-format on

} // namespace

ArrayRef<CallRow> parallelCallRows() { return Rows; }

} // namespace ad
