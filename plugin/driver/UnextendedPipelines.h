//===- UnextendedPipelines.h - Where no extension point runs -*- C++ -*-===//
//
// ThinLTO's backend at -O0 (a link with --lto-O0: `clang -O0 -flto=thin`'s
// link, a Rust debug build with -C linker-plugin-lto) builds a pipeline that
// invokes no extension point: the plugin's passes are never added, and the
// calls to __ad_autodiff reach the linker undefined. That pipeline does run
// EliminateAvailableExternallyPass; after it, where no extension point added
// the differentiation pass to this PassBuilder's pipelines, the fallback
// runs the pass over the module with analysis managers of its own.
//
// The state is per PassBuilder (one per backend thread in LTO), never
// process-wide.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_UNEXTENDEDPIPELINES_H
#define AD_DRIVER_UNEXTENDEDPIPELINES_H

#include <memory>

namespace llvm {
class PassBuilder;
}

namespace ad {

/// Whether an extension point of one PassBuilder's pipelines added the
/// differentiation pass.
struct PipelineDifferentiates {
  bool Scheduled = false;
  bool Running = false; ///< The fallback's own pipelines are not watched.
};

/// Registers the fallback with \p PB's instrumentation, if it has one.
void registerUnextendedPipelineFallback(
    llvm::PassBuilder &PB, std::shared_ptr<PipelineDifferentiates> State);

} // namespace ad

#endif
