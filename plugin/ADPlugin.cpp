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
//
//===----------------------------------------------------------------------===//
#include "driver/ADPass.h"
#include "driver/AnalysisPrinters.h"
#include "driver/LaneOrder.h"
#include "driver/Libdevice.h"
#include "driver/LoadsBeforeStores.h"
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
  PB.registerOptimizerEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level,
            ThinOrFullLTOPhase) { MPM.addPass(ad::ADPass(Level, &PB)); });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ADPlugin", "0.1", registerCallbacks};
}
