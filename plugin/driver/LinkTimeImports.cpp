//===- LinkTimeImports.cpp - Differentiation calls that ThinLTO imported --===//
#include "driver/LinkTimeImports.h"
#include "core/EntryPointNames.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// Whether \p F calls __ad_autodiff or __ad_fwddiff (in any spelling).
static bool callsEntryPoint(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction();
          Callee && entryPointKind(*Callee))
        return true;
  return false;
}

PreservedAnalyses
DropImportedDifferentiationPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 4> Imported;
  for (Function &F : M)
    if (F.hasAvailableExternallyLinkage() && callsEntryPoint(F))
      Imported.push_back(&F);
  // The definition elsewhere is the same function: calling it instead of an
  // inlined copy changes no result.
  for (Function *F : Imported)
    F->deleteBody();
  return Imported.empty() ? PreservedAnalyses::all()
                          : PreservedAnalyses::none();
}

} // namespace ad
