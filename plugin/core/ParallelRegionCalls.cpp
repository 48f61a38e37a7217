//===- ParallelRegionCalls.cpp - A parallel region seen as a call ---------===//
#include "core/ParallelRegionCalls.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace ad {

bool hasParallelRegionCall(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && isParallelRegionCall(*Call))
      return true;
  return false;
}

bool isParallelRegionCall(const CallBase &Call) {
  return Call.getMetadata(ParallelRegionMark);
}

void markParallelRegionCall(CallBase &Call, Value *Loc, RegionRole Role) {
  LLVMContext &C = Call.getContext();
  Metadata *Ops[] = {ValueAsMetadata::get(cast<Constant>(Loc)),
                     ConstantAsMetadata::get(
                         ConstantInt::get(Type::getInt8Ty(C), unsigned(Role)))};
  Call.setMetadata(ParallelRegionMark, MDNode::get(C, Ops));
}

void carryParallelRegionMark(CallBase &New, const CallBase &Region,
                             RegionRole Role) {
  if (isParallelRegionCall(Region))
    markParallelRegionCall(New, parallelRegionLocation(Region), Role);
}

void carryParallelRegionMark(CallBase &New, const CallBase &Region,
                             RegionRole Role, Function &Body, uint64_t Shadowed,
                             uint64_t Private) {
  if (!isParallelRegionCall(Region))
    return;
  LLVMContext &C = New.getContext();
  Type *I64 = Type::getInt64Ty(C);
  Metadata *Ops[] = {
      ValueAsMetadata::get(cast<Constant>(parallelRegionLocation(Region))),
      ConstantAsMetadata::get(
          ConstantInt::get(Type::getInt8Ty(C), unsigned(Role))),
      ValueAsMetadata::get(&Body),
      ConstantAsMetadata::get(ConstantInt::get(I64, Shadowed)),
      ConstantAsMetadata::get(ConstantInt::get(I64, Private))};
  New.setMetadata(ParallelRegionMark, MDNode::get(C, Ops));
}

RegionShadows parallelRegionShadows(const CallBase &Call) {
  MDNode *N = Call.getMetadata(ParallelRegionMark);
  if (!N || N->getNumOperands() < 5)
    return {};
  return {cast<Function>(cast<ValueAsMetadata>(N->getOperand(2))->getValue()),
          mdconst::extract<ConstantInt>(N->getOperand(3))->getZExtValue(),
          mdconst::extract<ConstantInt>(N->getOperand(4))->getZExtValue()};
}

Value *parallelRegionLocation(const CallBase &Call) {
  MDNode *N = Call.getMetadata(ParallelRegionMark);
  return cast<ValueAsMetadata>(N->getOperand(0))->getValue();
}

RegionRole parallelRegionRole(const CallBase &Call) {
  MDNode *N = Call.getMetadata(ParallelRegionMark);
  return RegionRole(
      mdconst::extract<ConstantInt>(N->getOperand(1))->getZExtValue());
}

} // namespace ad
