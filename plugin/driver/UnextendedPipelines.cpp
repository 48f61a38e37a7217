//===- UnextendedPipelines.cpp - Where no extension point runs ----------===//
#include "driver/UnextendedPipelines.h"
#include "driver/ADPass.h"
#include "core/EntryPointNames.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace ad {

static bool hasEntryPointCalls(const Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && !F.use_empty() && entryPointKind(F))
      return true;
  return false;
}

void registerUnextendedPipelineFallback(
    PassBuilder &PB, std::shared_ptr<PipelineDifferentiates> State) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  PIC->registerAfterPassCallback(
      [State](StringRef PassID, Any IR, const PreservedAnalyses &) {
        if (State->Scheduled || State->Running ||
            PassID != "EliminateAvailableExternallyPass")
          return;
        const Module *const *Unit = llvm::any_cast<const Module *>(&IR);
        if (!Unit || !hasEntryPointCalls(**Unit))
          return;
        // The pipeline hands its unit over as const; this callback runs
        // between its passes, where the module is the pipeline's to change.
        Module &M = const_cast<Module &>(**Unit);
        State->Running = true;
        // Analyses of our own: the pipeline's managers are not reachable
        // from here. What they cached about the functions changed here is
        // stale, but ThinLTO's -O0 pipeline ends with GlobalDCE, which reads
        // no function analysis, and code generation computes its own. The
        // fresh PassBuilder has no TargetMachine: the pass's cost queries
        // get LLVM's default answers, which shape derivatives but never
        // change their values.
        PassBuilder Fresh;
        LoopAnalysisManager LAM;
        FunctionAnalysisManager FAM;
        CGSCCAnalysisManager CGAM;
        ModuleAnalysisManager MAM;
        Fresh.registerModuleAnalyses(MAM);
        Fresh.registerCGSCCAnalyses(CGAM);
        Fresh.registerFunctionAnalyses(FAM);
        Fresh.registerLoopAnalyses(LAM);
        Fresh.crossRegisterProxies(LAM, FAM, CGAM, MAM);
        ADPass(OptimizationLevel::O0, nullptr).run(M, MAM);
        State->Running = false;
        // The pipeline's own verifier ran before this callback: check what
        // the pass made here, as the verifier would after a pass.
        if (verifyModule(M, &errs()))
          report_fatal_error("ADPlugin: invalid IR after differentiating at "
                             "the link (ThinLTO -O0)");
      });
}

} // namespace ad
