//===- LoweringOrder.h - Entry-point calls, innermost first -----*- C++ -*-===//
//
// A derivative of a derivative: `df` calls __ad_autodiff(f, x) and main calls
// __ad_fwddiff(df, x, 1.0). The plugin differentiates ordinary code only, so
// the call inside `df` is lowered first (to a call of `f.ad.gradient`, plain
// IR with the tape's run-time functions), and the derivative of `df` is then
// built from code that no longer calls an entry point. In general a call is
// lowered after every entry-point call in the functions its derivative will
// copy: the function it differentiates, everything that calls directly, and,
// through inner entry-point calls, what those differentiate. Lowering an
// inner call never changes which functions an outer call reaches, so one
// topological order computed up front holds to the end.
//
// A call whose derivative would contain itself (f calls __ad_autodiff(f, ..)
// directly or through other functions) has no finite lowering: such calls
// are reported, never lowered.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_LOWERINGORDER_H
#define AD_DRIVER_LOWERINGORDER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace ad {

class CustomRules;

struct LoweringOrder {
  /// Indices into the calls, each after every call it depends on.
  llvm::SmallVector<unsigned, 8> Order;
  /// Per call: it depends on itself (a cycle through entry points).
  llvm::SmallVector<bool, 8> Recursive;
  /// Per call: it sits in code another call's derivative copies.
  llvm::SmallVector<bool, 8> Nested;
};

/// The order in which to lower \p Calls, where \p Targets[i] is the function
/// call i differentiates (nullptr when the call could not be read). A call
/// of a function with \p Rules reaches its rules too: derivatives call them.
LoweringOrder innermostFirst(llvm::ArrayRef<llvm::CallBase *> Calls,
                             llvm::ArrayRef<llvm::Function *> Targets,
                             const CustomRules &Rules);

} // namespace ad

#endif
