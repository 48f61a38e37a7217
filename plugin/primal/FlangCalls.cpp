//===- FlangCalls.cpp - flang's runtime calls replaced by their bodies ----===//
#include "primal/FlangCalls.h"
#include "runtime/FlangRuntime.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace ad {

unsigned inlineFlangBodies(Function &F, FunctionAnalysisManager &FAM) {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->isDeclaration() &&
          isFlangRuntimeName(Callee->getName()) &&
          !Callee->getName().starts_with("_FortranAio")) // I/O: rows.
        Calls.push_back(Call);
  SmallVector<const Function *, 8> Callees;
  for (CallBase *Call : Calls)
    Callees.push_back(Call->getCalledFunction());
  SmallVector<Function *, 8> Bodies = linkFlangBodies(*F.getParent(), Callees);
  unsigned Inlined = 0;
  for (auto [Call, Body] : zip(Calls, Bodies)) {
    if (!Body)
      continue;
    Call->setCalledFunction(Body);
    InlineFunctionInfo IFI;
    if (InlineFunction(*Call, IFI).isSuccess())
      ++Inlined;
  }
  // A body left with no caller goes (a later clone links it again).
  SmallPtrSet<Function *, 8> Linked(Bodies.begin(), Bodies.end());
  for (Function *Body : Linked)
    if (Body && Body->use_empty())
      Body->eraseFromParent();
  if (!Inlined)
    return 0;
  FAM.invalidate(F, PreservedAnalyses::none());
  // Descriptors to SSA values, then the body's checks of them folded, then
  // what no longer escapes to the runtime to SSA values too.
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.run(F, FAM);
  return Inlined;
}

} // namespace ad
