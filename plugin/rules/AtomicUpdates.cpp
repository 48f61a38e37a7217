//===- AtomicUpdates.cpp - Which atomic updates carry derivatives
//----------===//
#include "rules/AtomicUpdates.h"
#include "support/Diagnostics.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace ad {

bool isDifferentiatedAtomicUpdate(const AtomicRMWInst &I) {
  return I.getValOperand()->getType()->isFPOrFPVectorTy();
}

bool checkAtomicUpdate(DiagnosticReporter &Diag, const AtomicRMWInst &I) {
  switch (I.getOperation()) {
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub:
  case AtomicRMWInst::Xchg:
    return true;
  default:
    Diag.error(&I,
               "an atomic " +
                   AtomicRMWInst::getOperationName(I.getOperation()) +
                   " of differentiated floating-point data has no derivative "
                   "rule",
               "use atomicAdd, or compute the extreme without atomics");
    return false;
  }
}

} // namespace ad
