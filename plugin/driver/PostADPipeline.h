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

/// GPU device code: inlines each call of one of \p Derivatives from a
/// function that is not itself one of them (the user's kernel or device
/// function that called __ad_autodiff) into its caller. A derivative left
/// as a call takes every pointer as a generic one; inlined, the kernel's
/// arguments lead its loads and stores to global memory (NVPTX infers the
/// address space) and the kernel's __restrict__ reaches them.
void inlineDerivativesIntoDeviceCallers(
    llvm::ArrayRef<llvm::Function *> Derivatives,
    llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
