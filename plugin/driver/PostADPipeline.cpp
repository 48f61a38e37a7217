//===- PostADPipeline.cpp - How the synthesized derivatives are optimized -===//
//
// A matrix product's reverse inner loop (dinp[i] += d * w[i];
// dw[i] += d * inp[i]) is what a handwritten backward gets vectorized, with
// runtime checks that dinp and dw do not overlap. The module pipeline's
// vectorizer, which runs after the pass, hoists those checks out of the outer
// loop in a form a reverse sweep always fails (see UnhoistedRuntimeChecks),
// so the derivatives are vectorized here first; loops vectorized here are
// marked so and left alone by the later vectorizer.
//
//===----------------------------------------------------------------------===//
#include "driver/PostADPipeline.h"
#include "driver/LaneOrder.h"
#include "driver/LoadsBeforeStores.h"
#include "llvm/Analysis/LoopAccessAnalysis.h"
#include "llvm/IR/Function.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Vectorize/LoopVectorize.h"

using namespace llvm;

namespace ad {

namespace {
/// Runtime alias checks of an inner loop are hoisted out of its outer loop
/// only when the outer loop's stride is known non-negative; otherwise the
/// hoisted check also tests the stride at runtime and takes the scalar loop
/// when it is negative. A reverse sweep runs every loop backward, so its
/// outer strides are negative and a hoisted check would never let the
/// vector loop run: the checks stay in the outer loop (as the option
/// -hoist-runtime-checks=false does), for the derivatives only. The switch
/// is process-wide: a ThinLTO backend optimizing another module in a
/// parallel thread could see it off for a moment, and would then emit
/// unhoisted checks, which are as correct, only slower for short loops.
class UnhoistedRuntimeChecks {
  bool Saved = VectorizerParams::HoistRuntimeChecks;

public:
  UnhoistedRuntimeChecks() { VectorizerParams::HoistRuntimeChecks = false; }
  ~UnhoistedRuntimeChecks() { VectorizerParams::HoistRuntimeChecks = Saved; }
};
} // namespace

void optimizeDerivatives(ArrayRef<Function *> Derivatives,
                         ArrayRef<Function *> ForwardCopies,
                         OptimizationLevel Level, PassBuilder &PB,
                         FunctionAnalysisManager &FAM) {
  FunctionPassManager FPM =
      PB.buildFunctionSimplificationPipeline(Level, ThinOrFullLTOPhase::None);
  if (Level.getSpeedupLevel() >= 2) {
    // The vectorization part of the module optimization pipeline, cleaned up
    // as it cleans up after it.
    FPM.addPass(LoopVectorizePass());
    FPM.addPass(InferAlignmentPass());
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass(SimplifyCFGOptions()
                                    .forwardSwitchCondToPhi(true)
                                    .convertSwitchRangeToICmp(true)
                                    .convertSwitchToLookupTable(true)
                                    .needCanonicalLoops(false)
                                    .hoistCommonInsts(true)
                                    .sinkCommonInsts(true)));
    // After the vectorizer: its downward loops' lane reversals (see
    // LaneOrder.h), and the runtime checks that show the adjoints a reverse
    // loop updates apart (see LoadsBeforeStores.h).
    FPM.addPass(LaneOrderPass());
    FPM.addPass(LoadsBeforeStoresPass());
  }
  // An augmented forward sweep is the primal, which the simplification
  // pipeline has already been through, plus the stores of its records: a
  // cleanup of the inlined tape pushes is enough before the module pipeline
  // (vectorizers, unrolling) takes it with the rest.
  FunctionPassManager Cleanup;
  Cleanup.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  Cleanup.addPass(InstCombinePass());
  Cleanup.addPass(SimplifyCFGPass());
  UnhoistedRuntimeChecks Unhoisted;
  for (Function *F : Derivatives)
    if (!F->isDeclaration())
      FPM.run(*F, FAM);
  for (Function *F : ForwardCopies)
    if (!F->isDeclaration())
      Cleanup.run(*F, FAM);
}

} // namespace ad
