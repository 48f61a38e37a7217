//===- Preprocess.cpp - The canonical primal --------------------------------===//
#include "primal/Preprocess.h"
#include "primal/ReloadVersioning.h"
#include "core/PrimalMarks.h"
#include "primal/ConstantCallees.h"
#include "primal/IndirectCallDispatch.h"
#include "primal/DeferredFrees.h"
#include "primal/FlangCalls.h"
#include "primal/MessageWrappers.h"
#include "primal/ParallelRegions.h"
#include "primal/SelectReductions.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
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

Function *createCanonicalPrimal(Function &F, FunctionAnalysisManager &FAM,
                                IndirectCalleeCache &Callees, bool Report,
                                unsigned *SelectReductions) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  Clone->setName(F.getName() + ".ad.primal");
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->setComdat(nullptr);
  dropPrimalOnlyAttributes(*Clone);
  forgetPrimalMarks(*Clone); // F may be a gradient (nested).

  // Differentiated code is assumed not to throw: an invoke becomes a call
  // and its landing pads (C++ cleanups at -O0) disappear with it.
  SmallVector<InvokeInst *, 4> Invokes;
  for (BasicBlock &BB : *Clone)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  for (InvokeInst *II : Invokes)
    changeToCall(II);
  if (!Invokes.empty())
    removeUnreachableBlocks(*Clone);
  // Before SROA: a reduction's private copies, passed to the lock no more,
  // become plain values.
  callParallelRegionsDirectly(*Clone);
  // Before SROA: the descriptors flang passes to its runtime become values
  // once the runtime's bodies are inlined.
  inlineFlangBodies(*Clone, FAM);
  // MPI operations through the wrappers that record them (before SROA:
  // the status and request slots are the MPI calls' own arguments either
  // way).
  if (wrapMessageCalls(*Clone))
    FAM.invalidate(*Clone, PreservedAnalyses::none());

  // SROA first: it also turns type-punned scalars (a union read through
  // another member) into SSA values and bitcasts that the analyses see.
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(PromotePass());
  FPM.addPass(UnifyFunctionExitNodesPass());
  // Preheaders, one latch, dedicated exits: the shape CountedLoops.cpp
  // reverses without a tape.
  FPM.addPass(LoopSimplifyPass());
  FPM.run(*Clone, FAM);
  // After promotion: a function pointer kept in a local is a constant now.
  // The rest choose at run time between functions the module defines.
  unsigned Rewritten = resolveConstantCallees(*Clone);
  Rewritten += dispatchIndirectCalls(*Clone, Callees, Report ? &F : nullptr);
  if (Rewritten)
    FAM.invalidate(*Clone, PreservedAnalyses::none());
  unsigned ReadBack = readBackSelectReductions(*Clone, FAM);
  if (SelectReductions)
    *SelectReductions = ReadBack;
  markDeferredFrees(*Clone, FAM);
  return Clone;
}

} // namespace ad
