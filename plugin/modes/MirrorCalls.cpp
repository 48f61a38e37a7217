//===- MirrorCalls.cpp - Library calls repeated on the shadows ------------===//
#include "modes/MirrorCalls.h"
#include "analysis/ActivityAnalysis.h"
#include "rules/KnownFunctions.h"

using namespace llvm;

namespace ad {

bool emitMirrorCall(ADContext &Ctx, const ActivityAnalysis &AA, CallBase &I,
                    CallBase &Clone, IRBuilderBase &B, const MirrorShape &Shape,
                    function_ref<Value *(Value *)> ShadowOf,
                    function_ref<Value *(Value *)> CloneOf, Value *&Result) {
  Result = nullptr;
  if (none_of(I.args(), [&](const Use &U) { return AA.hasShadow(U); }))
    return true;
  SmallVector<Value *, 4> Args, Shadows(I.arg_size(), nullptr);
  for (Use &U : I.args()) {
    if (!U->getType()->isPointerTy()) {
      Args.push_back(CloneOf(U));
      continue;
    }
    if (!AA.hasShadow(U) && !isa<Constant>(U)) {
      Ctx.Diag.error(&I,
                     "'" + I.getCalledFunction()->getName() +
                         "' links a node of differentiated memory with one "
                         "that has no shadow",
                     "keep the whole container in differentiated memory");
      return false;
    }
    Value *S = ShadowOf(U);
    if (!S)
      return false;
    Shadows[U.getOperandNo()] = S;
    Args.push_back(S);
  }
  if (Shape.SyncFrom >= 0) {
    IRBuilder<> Before(&Clone);
    Value *Null = Constant::getNullValue(Before.getPtrTy());
    bool Tree = Shape.Header >= 0;
    Before.CreateCall(Ctx.Runtime.rbTreeSyncColours(),
                      {CloneOf(I.getArgOperand(Shape.SyncFrom)),
                       Shadows[Shape.SyncFrom],
                       Tree ? CloneOf(I.getArgOperand(Shape.Header)) : Null,
                       Tree ? Shadows[Shape.Header] : Null,
                       Before.getInt1(Shape.FromSuccessor)});
  }
  CallInst *Mirror =
      B.CreateCall(Clone.getFunctionType(), Clone.getCalledOperand(), Args);
  Mirror->setCallingConv(Clone.getCallingConv());
  Mirror->setDebugLoc(Clone.getDebugLoc());
  if (!I.getType()->isVoidTy())
    Mirror->setName(I.getName() + ".shadow");
  Result = Mirror;
  return true;
}

} // namespace ad
