//===- PrimalMarks.cpp - What the canonical primal's metadata vouches for -===//
#include "core/PrimalMarks.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace ad {

static constexpr const char *Kinds[] = {
    "ad.unchanged",        "ad.unchanged.in.loop", "ad.deferred.free",
    "ad.freed.in.reverse", "ad.unchanged.args",    "ad.owned.args",
    "ad.kept.writes"};
enum Kind {
  Unchanged,
  UnchangedInLoop,
  Deferred,
  FreedInReverse,
  UnchangedArgs,
  OwnedArgs,
  KeptWrites
};

static bool has(const Instruction &I, Kind K) {
  return I.getMetadata(Kinds[K]) != nullptr;
}
static void mark(Instruction &I, Kind K, ArrayRef<Metadata *> Ops = {}) {
  I.setMetadata(Kinds[K], MDNode::get(I.getContext(), Ops));
}

bool isUnchangedAfterAccess(const Instruction &I) { return has(I, Unchanged); }
void markUnchangedAfterAccess(Instruction &I) { mark(I, Unchanged); }
bool isUnchangedInItsLoop(const Instruction &I) {
  return has(I, UnchangedInLoop);
}
void markUnchangedInItsLoop(Instruction &I) { mark(I, UnchangedInLoop); }
static uint64_t maskOf(const CallBase &Call, Kind K) {
  MDNode *N = Call.getMetadata(Kinds[K]);
  if (!N || N->getNumOperands() != 1)
    return 0;
  auto *C = mdconst::dyn_extract<ConstantInt>(N->getOperand(0));
  return C ? C->getZExtValue() : 0;
}
static void addToMask(CallBase &Call, Kind K, uint64_t Mask) {
  Mask |= maskOf(Call, K);
  mark(Call, K,
       {ConstantAsMetadata::get(
           ConstantInt::get(Type::getInt64Ty(Call.getContext()), Mask))});
}
uint64_t unchangedArguments(const CallBase &Call) {
  return maskOf(Call, UnchangedArgs);
}
void markUnchangedArguments(CallBase &Call, uint64_t Mask) {
  addToMask(Call, UnchangedArgs, Mask);
}
uint64_t ownedArguments(const CallBase &Call) {
  return maskOf(Call, OwnedArgs);
}
void markOwnedArguments(CallBase &Call, uint64_t Mask) {
  addToMask(Call, OwnedArgs, Mask);
}
uint64_t keptWrittenArguments(const CallBase &Call) {
  return maskOf(Call, KeptWrites);
}
void markKeptWrittenArguments(CallBase &Call, uint64_t Mask) {
  addToMask(Call, KeptWrites, Mask);
}
void clearKeptWrittenArguments(CallBase &Call) {
  Call.setMetadata(Kinds[KeptWrites], nullptr);
}
bool isDeferredFree(const Instruction &I) { return has(I, Deferred); }

Function *freedInReverse(const CallBase &Alloc) {
  MDNode *N = Alloc.getMetadata(Kinds[FreedInReverse]);
  if (!N || N->getNumOperands() != 1)
    return nullptr;
  auto *V = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get());
  return V ? dyn_cast<Function>(V->getValue()) : nullptr;
}

void markDeferredFree(CallBase &Free, CallBase &Alloc, Function &FreeFn) {
  mark(Free, Deferred);
  mark(Alloc, FreedInReverse, {ValueAsMetadata::get(&FreeFn)});
}

static constexpr const char *UnresolvedCallee = "ad.unresolved.callee";
bool isUnresolvedCallee(const CallBase &Call) {
  return Call.getMetadata(UnresolvedCallee) != nullptr;
}
void markUnresolvedCallee(CallBase &Call) {
  Call.setMetadata(UnresolvedCallee, MDNode::get(Call.getContext(), {}));
}

void forgetPrimalMarks(Function &F) {
  for (Instruction &I : instructions(F))
    for (const char *K : Kinds)
      I.setMetadata(K, nullptr);
}

} // namespace ad
