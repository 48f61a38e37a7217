//===- ParallelRegionCalls.cpp - A parallel region seen as a call ---------===//
#include "core/ParallelRegionCalls.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace ad {

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
