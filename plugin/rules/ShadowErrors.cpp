//===- ShadowErrors.cpp - Errors both modes report in the same words ------===//
#include "rules/ShadowErrors.h"
#include "rules/MessagePassing.h"
#include "runtime/MessageRuntime.h"
#include "support/Diagnostics.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace ad {

void reportStoreWithoutShadow(DiagnosticReporter &Diag, const Instruction &At) {
  // Memory from an allocator called through a pointer that is not fixed at
  // compile time (a parameter, a writable global; ConstantCallees.h) has no
  // shadow: say so, rather than blame the memory's activity.
  const Value *Ptr = getLoadStorePointerOperand(&At);
  const auto *Source =
      Ptr ? dyn_cast<CallBase>(getUnderlyingObject(Ptr)) : nullptr;
  if (Source && !Source->getCalledFunction() && !Source->isInlineAsm()) {
    Diag.error(&At,
               "a differentiated value is stored to memory returned by an "
               "indirect call, which cannot be resolved to an allocation "
               "function, so the memory has no shadow",
               "call the allocator directly, or through a pointer fixed at "
               "compile time (a const or never-written static)");
    return;
  }
  Diag.error(&At,
             "a differentiated value is stored to memory that has no shadow, "
             "so its derivative would be lost",
             "pass that memory as an __ad_dup argument instead of __ad_const "
             "or a global");
}

void reportCopyWithoutShadow(DiagnosticReporter &Diag, const Instruction &At) {
  Diag.error(&At,
             "differentiated memory is copied into memory that has no shadow",
             "give the destination a shadow (pass it as __ad_dup)");
}

void reportMaskedPointerAccess(DiagnosticReporter &Diag, const Instruction &At) {
  Diag.error(&At, "cannot differentiate a masked load or store of pointers",
             "keep pointers out of vectorized loops, or compile with "
             "-fno-vectorize");
}

void reportUnknownCall(DiagnosticReporter &Diag, const CallBase &Call) {
  // Entry-point calls inside differentiated code were lowered before it
  // (driver/LoweringOrder.h); what remains here has no body.
  const Function *Callee = Call.getCalledFunction();
  if (Callee && Callee->getName().starts_with("MPI_")) {
    Diag.error(&Call,
               "call to '" + Callee->getName() +
                   "' with differentiated data: this MPI function is not "
                   "differentiated",
               Twine("the plugin differentiates ") +
                   differentiatedMessageFunctions() +
                   (messageRuntimeAvailable()
                        ? ""
                        : "; this plugin was built without Open MPI's "
                          "headers (install libopenmpi-dev and rebuild it)"));
    return;
  }
  Diag.error(&Call,
             Callee ? "call to '" + Callee->getName() +
                          "', which has no body and no derivative rule"
                    : Twine("indirect call or inline assembly with "
                            "differentiated arguments"),
             "define the function in this module, or call it only with "
             "__ad_const data");
}

} // namespace ad
