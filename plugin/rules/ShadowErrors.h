//===- ShadowErrors.h - Errors both modes report in the same words -*- C++ -*-===//
//
// Where a derivative would be written to memory that has no shadow, or a
// call would receive derivatives no rule can take, forward mode, the forward
// sweep and the reverse sweep meet the same construct: one wording for all.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_SHADOWERRORS_H
#define AD_RULES_SHADOWERRORS_H

namespace llvm {
class CallBase;
class Instruction;
} // namespace llvm

namespace ad {

class DiagnosticReporter;

/// A differentiated value stored (plainly or masked) where no shadow is.
void reportStoreWithoutShadow(DiagnosticReporter &Diag,
                              const llvm::Instruction &At);
/// Differentiated memory copied (memcpy, memmove) into memory without one.
void reportCopyWithoutShadow(DiagnosticReporter &Diag,
                             const llvm::Instruction &At);
/// A masked load/store/gather/scatter of pointers in active code.
void reportMaskedPointerAccess(DiagnosticReporter &Diag,
                               const llvm::Instruction &At);
/// Derivatives passed to, or returned by, a call with no body and no rule.
void reportUnknownCall(DiagnosticReporter &Diag, const llvm::CallBase &Call);

} // namespace ad

#endif
