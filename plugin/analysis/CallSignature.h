//===- CallSignature.h - The derivative a call inside a derivative needs -===//
//
// A call to a defined function inside a function being differentiated gets
// a derivative of its own; which one (the activity of each argument and of
// the result) follows from the caller's activity analysis.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_CALLSIGNATURE_H
#define AD_ANALYSIS_CALLSIGNATURE_H

#include "core/DerivativeSignature.h"
#include <optional>

namespace llvm {
class CallBase;
} // namespace llvm

namespace ad {

class ActivityAnalysis;

/// The derivative of kind \p Kind that call \p I (to a defined function,
/// inside a function being differentiated) needs, from the activities of its
/// arguments and result; nullopt when nothing of the call is differentiated.
/// Split derivatives' KeptArgs/UnwrittenArgs are the caller's to fill.
std::optional<DerivativeSignature>
signatureForCall(const llvm::CallBase &I, const ActivityAnalysis &AA,
                 DerivativeKind Kind);

} // namespace ad

#endif
