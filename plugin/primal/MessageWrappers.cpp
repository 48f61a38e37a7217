//===- MessageWrappers.cpp - MPI calls through the run-time support -------===//
#include "primal/MessageWrappers.h"
#include "rules/KnownFunctions.h"
#include "rules/MessagePassing.h"
#include "runtime/MessageRuntime.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

unsigned wrapMessageCalls(Function &F) {
  if (!messageRuntimeAvailable())
    return 0;
  SmallVector<std::pair<CallInst *, const MessageOperation *>, 8> Calls;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? calledFunction(*Call) : nullptr;
    const MessageOperation *Op =
        Callee ? messageOperationNamed(Callee->getName()) : nullptr;
    if (Op && !Callee->isVarArg() && Callee->arg_size() == Op->Params &&
        Callee->getReturnType()->isIntegerTy())
      Calls.push_back({Call, Op});
  }
  Module &M = *F.getParent();
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  for (auto [Call, Op] : Calls) {
    SmallVector<Type *, 14> Params(Call->getFunctionType()->params());
    SmallVector<Value *, 14> Args(Call->args());
    for (unsigned K = 0; K < Op->bufferCount(); ++K) {
      Params.push_back(Ptr);
      Args.push_back(ConstantPointerNull::get(Ptr));
    }
    FunctionCallee Wrapper = M.getOrInsertFunction(
        Op->Record, FunctionType::get(Ptr, Params, /*isVarArg=*/false));
    CallInst *New = CallInst::Create(Wrapper, Args, "", Call->getIterator());
    New->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 0));
    Call->eraseFromParent();
  }
  return Calls.size();
}

} // namespace ad
