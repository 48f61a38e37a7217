//===- PostADPipeline.h - How the synthesized derivatives are optimized ---===//
//
// The derivatives are new functions: the function simplification passes that
// ran on the user's code before the pass never saw them. They are simplified
// here, and their reverse loops vectorized, before the rest of the module
// pipeline (which also vectorizes) runs over them with the user's code.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_POSTADPIPELINE_H
#define AD_DRIVER_POSTADPIPELINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace llvm {
class Function;
class PassBuilder;
} // namespace llvm

namespace ad {

/// Optimizes \p Derivatives as \p Level optimizes the rest of the program:
/// the function simplification pipeline, then, at -O2 and above, the loop
/// vectorizer, with runtime alias checks that a reverse loop can pass.
/// \p ForwardCopies (augmented forward sweeps: the simplified primal plus
/// stores to the tape) only get a cleanup.
void optimizeDerivatives(llvm::ArrayRef<llvm::Function *> Derivatives,
                         llvm::ArrayRef<llvm::Function *> ForwardCopies,
                         llvm::OptimizationLevel Level, llvm::PassBuilder &PB,
                         llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
