//===- DerivativeCallSites.h - Where derivatives meet their callers -------===//
//
// A derivative is a new function, called from the user's code where the
// entry point was. The module pipeline's inliner and its interprocedural
// constant propagation ran before the pass, so without help the call stays a
// call and what its caller always passes (the seed 1.0, a global array) stays
// a parameter. Small gradients then paid for a call and for multiplying
// every adjoint by a seed that is one (bench/rosenbrock, before these steps:
// 1.2 times the handwritten time at n = 4096, twice at n = 8; after, 0.9 at
// n >= 64). These steps do what the inliner and IPSCCP would have done had
// the derivatives existed when they ran.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_DERIVATIVECALLSITES_H
#define AD_DRIVER_DERIVATIVECALLSITES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

class DiagnosticReporter;

/// Replaces each parameter of the local functions in \p Functions that every
/// call passes the same constant (not undef) with that constant, so that
/// optimizing the body folds it: a gradient's seed of 1.0 makes its
/// multiplications by the seed disappear (x * 1.0 is x exactly), a global
/// array passed as a pointer lets alias analysis tell it from the others.
/// Functions whose address escapes (an OpenMP region's callback) are left
/// alone. Returns the number of parameters replaced.
unsigned foldConstantArguments(llvm::ArrayRef<llvm::Function *> Functions);

/// Inlines the calls of the functions in \p Synthesized from functions
/// that are not among them (the user's code that called the entry point).
/// With \p Always (GPU device code, where a derivative left as a call takes
/// every pointer as a generic one) every such call is inlined; otherwise
/// where LLVM's inline cost model for \p Level accepts it, as the inliner
/// would have. Returns, per function, the number of call sites inlined.
llvm::SmallVector<unsigned>
inlineDerivativesIntoCallers(llvm::ArrayRef<llvm::Function *> Synthesized,
                             bool Always, llvm::OptimizationLevel Level,
                             llvm::FunctionAnalysisManager &FAM);

/// The user's function each derivative comes from, and how messages name
/// it ('f', or the derivative of 'f'), taken while every clone on the way
/// back is still alive.
using DerivativeOrigins =
    llvm::DenseMap<const llvm::Function *,
                   std::pair<const llvm::Function *, std::string>>;
DerivativeOrigins describeOrigins(llvm::ArrayRef<llvm::Function *> Synthesized,
                                  const DiagnosticReporter &Diag);

/// -Rpass=ad: the size of each function in \p Synthesized (instructions and
/// blocks, after optimization when \p Optimized), at the user's function it
/// derives from (\p Fallback when that is gone), so that a user sees what a
/// derivative costs in code. \p InlinedInto counts the call sites each was
/// inlined into.
void remarkDerivativeSizes(llvm::ArrayRef<llvm::Function *> Synthesized,
                           llvm::ArrayRef<unsigned> InlinedInto, bool Optimized,
                           const DerivativeOrigins &Origins,
                           const llvm::Function &Fallback);

} // namespace ad

#endif
