//===- DeferredFreeMarks.cpp - The marks of frees a gradient defers -------===//
#include "core/DeferredFreeMarks.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace ad {

static constexpr const char *DeferredKind = "ad.deferred.free";
static constexpr const char *FreedInReverseKind = "ad.freed.in.reverse";

bool isDeferredFree(const Instruction &I) {
  return I.getMetadata(DeferredKind) != nullptr;
}

Function *freedInReverse(const CallBase &Alloc) {
  MDNode *N = Alloc.getMetadata(FreedInReverseKind);
  if (!N || N->getNumOperands() != 1)
    return nullptr;
  auto *V = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get());
  return V ? dyn_cast<Function>(V->getValue()) : nullptr;
}

void markDeferredFree(CallBase &Free, CallBase &Alloc, Function &FreeFn) {
  LLVMContext &C = Free.getContext();
  Free.setMetadata(DeferredKind, MDNode::get(C, {}));
  Alloc.setMetadata(FreedInReverseKind,
                    MDNode::get(C, {ValueAsMetadata::get(&FreeFn)}));
}

void forgetDeferredFrees(Function &F) {
  for (Instruction &I : instructions(F)) {
    I.setMetadata(DeferredKind, nullptr);
    I.setMetadata(FreedInReverseKind, nullptr);
  }
}

} // namespace ad
