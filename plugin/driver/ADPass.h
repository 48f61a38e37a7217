//===- ADPass.h - The module pass that replaces every __ad_* call -----------===//
#ifndef AD_DRIVER_ADPASS_H
#define AD_DRIVER_ADPASS_H

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace llvm {
class PassBuilder;
}

namespace ad {

/// Finds every call to an entry point (__ad_autodiff*, __ad_fwddiff*),
/// synthesizes the derivative it asks for, and replaces the call with a call
/// to it. At -O1 and above the new functions are then optimized by the same
/// level's function simplification pipeline.
class ADPass : public llvm::PassInfoMixin<ADPass> {
public:
  ADPass(llvm::OptimizationLevel Level, llvm::PassBuilder *PB)
      : Level(Level), PB(PB) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  /// clang -O0 marks every function optnone; differentiation must still run.
  static bool isRequired() { return true; }

private:
  llvm::OptimizationLevel Level;
  llvm::PassBuilder *PB;
};

} // namespace ad

#endif
