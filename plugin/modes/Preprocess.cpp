//===- Preprocess.cpp - The canonical primal --------------------------------===//
#include "modes/Preprocess.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"

using namespace llvm;

namespace ad {

void dropPrimalOnlyAttributes(Function &F) {
  for (Attribute::AttrKind K :
       {Attribute::Memory, Attribute::NoFree, Attribute::Speculatable,
        Attribute::OptimizeNone, Attribute::NoInline, Attribute::WillReturn,
        Attribute::NoSync, Attribute::AlwaysInline, Attribute::Naked})
    F.removeFnAttr(K);
  for (Argument &A : F.args())
    for (Attribute::AttrKind K :
         {Attribute::ReadNone, Attribute::ReadOnly, Attribute::WriteOnly,
          Attribute::Returned})
      A.removeAttr(K);
}

void restoreDerivativeAttributes(Function &F, AttributeList Saved) {
  F.setAttributes(Saved);
  dropPrimalOnlyAttributes(F);
  F.setCallingConv(CallingConv::C);
}

Function *createCanonicalPrimal(Function &F, FunctionAnalysisManager &FAM) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  Clone->setName(F.getName() + ".ad.primal");
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->setComdat(nullptr);
  dropPrimalOnlyAttributes(*Clone);

  FunctionPassManager FPM;
  FPM.addPass(PromotePass());
  FPM.addPass(UnifyFunctionExitNodesPass());
  FPM.run(*Clone, FAM);
  return Clone;
}

} // namespace ad
