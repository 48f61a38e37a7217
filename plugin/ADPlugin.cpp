//===- ADPlugin.cpp - Registers the differentiation pass with LLVM
//----------===//
//
// clang-22 -fpass-plugin=ADPlugin.so: the pass runs where the module
// optimization pipeline starts, at every -O level: it differentiates code
// that inlining and the function simplification passes have optimized, but
// that loop vectorization and unrolling have not yet widened, then optimizes
// the derivatives (driver/PostADPipeline.cpp), and the rest of the pipeline
// (vectorizers, unrolling, codegen preparation) runs over them as over the
// user's code.
// opt-22 -load-pass-plugin=ADPlugin.so -passes=ad: the pass alone;
// -passes='ad<O2>' also optimizes the derivatives as -O2 would.
// -passes='print<ad-activity>' / 'print<ad-types>' print the analyses'
// decisions for every differentiation call (to stderr), changing nothing.
// -passes=ad-lane-order, -passes=ad-loads-before-stores: the post-AD
// pipeline's lane reordering (driver/LaneOrder.h) and load scheduling
// (driver/LoadsBeforeStores.h) alone, on any function, for tests.
// At the start of the pipeline, KeepRuleCallsPass keeps functions with custom
// rules (include/ad.h) from being inlined before the pass sees their calls.
// Loaded by the linker (-Wl,--load-pass-plugin=, docs/LTO.md), the pass runs
// in ThinLTO's per-module backends and at the start of full LTO's pipeline.
//
//===----------------------------------------------------------------------===//
#include "driver/ADPass.h"
#include "driver/AnalysisPrinters.h"
#include "driver/LaneOrder.h"
#include "driver/Libdevice.h"
#include "driver/LinkTimeImports.h"
#include "driver/LoadsBeforeStores.h"
#include "driver/UnextendedPipelines.h"
#include "rules/CustomRules.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

static std::optional<OptimizationLevel> parseLevel(StringRef Params) {
  if (Params.empty() || Params == "O0")
    return OptimizationLevel::O0;
  if (Params == "O1")
    return OptimizationLevel::O1;
  if (Params == "O2")
    return OptimizationLevel::O2;
  if (Params == "O3")
    return OptimizationLevel::O3;
  return std::nullopt;
}

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM,
            ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<ad-activity>") {
          MPM.addPass(ad::ActivityPrinterPass(errs()));
          return true;
        }
        if (Name == "print<ad-types>") {
          MPM.addPass(ad::TypePrinterPass(errs()));
          return true;
        }
        if (!PassBuilder::checkParametrizedPassName(Name, "ad"))
          return false;
        StringRef Params = Name.drop_front(2);
        Params.consume_front("<");
        Params.consume_back(">");
        std::optional<OptimizationLevel> Level = parseLevel(Params);
        if (!Level)
          return false;
        MPM.addPass(ad::ADPass(*Level, &PB));
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "ad-lane-order") {
          FPM.addPass(ad::LaneOrderPass());
          return true;
        }
        if (Name != "ad-loads-before-stores")
          return false;
        FPM.addPass(ad::LoadsBeforeStoresPass());
        return true;
      });
  // Calls to functions with custom rules must survive the pipeline's
  // inliner to reach the pass.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ad::KeepRuleCallsPass());
        MPM.addPass(ad::KeepLibdeviceCallsPass());
      });
  // ThinLTO's backends: imported callers of the entry points go back to
  // their own module (driver/LinkTimeImports.h) before the inliner runs.
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink)
          MPM.addPass(ad::DropImportedDifferentiationPass());
      });
  // Every per-module pipeline, ThinLTO's backends included. In a ThinLTO or
  // full LTO compile step the calls are lowered there, and the link finds
  // none left.
  auto Differentiates = std::make_shared<ad::PipelineDifferentiates>();
  PB.registerOptimizerEarlyEPCallback(
      [&PB, Differentiates](ModulePassManager &MPM, OptimizationLevel Level,
                            ThinOrFullLTOPhase) {
        Differentiates->Scheduled = true;
        MPM.addPass(ad::ADPass(Level, &PB));
      });
  // Full LTO's link runs no per-module pipeline: the merged module is
  // differentiated where its pipeline starts, its inliner and optimizations
  // then run over the derivatives.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [&PB, Differentiates](ModulePassManager &MPM, OptimizationLevel Level) {
        Differentiates->Scheduled = true;
        MPM.addPass(ad::ADPass(Level, &PB));
      });
  // ThinLTO's -O0 backends invoke none of these (driver/UnextendedPipelines.h).
  ad::registerUnextendedPipelineFallback(PB, Differentiates);
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ADPlugin", "0.1", registerCallbacks};
}
