//===- LinkTimeImports.h - Differentiation calls that ThinLTO imported ----===//
//
// With the plugin loaded only at the link (-Wl,--load-pass-plugin=, and
// Rust's -C linker-plugin-lto), ThinLTO runs one backend per module. A small
// function that calls __ad_autodiff(f, ...) is imported into its callers'
// modules as an available_externally copy, and f itself (referenced, never
// called) is not: differentiated there, the copy would find no body for f
// (nor for what f calls). The copy is only an inlining candidate; the module
// that defines the function keeps the definition, and differentiates it with
// f's body at hand. DropImportedDifferentiationPass turns such copies back
// into declarations before the inliner sees them, so that their callers call
// that definition.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_LINKTIMEIMPORTS_H
#define AD_DRIVER_LINKTIMEIMPORTS_H

#include "llvm/IR/PassManager.h"

namespace ad {

class DropImportedDifferentiationPass
    : public llvm::PassInfoMixin<DropImportedDifferentiationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace ad

#endif
