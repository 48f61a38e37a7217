//===- StoredPointers.cpp - Pointers without shadows reaching shadowed places
//===//
#include "modes/StoredPointers.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

using namespace llvm;

namespace ad {

Value *shadowForUnshadowedPointer(ADContext &Ctx, Value *Ptr, Instruction *At) {
  // An aggregate of pointers (a std::pair of nodes) without a shadow was
  // loaded or returned from where no shadow is kept, like a pointer loaded
  // from memory without one: null shadows.
  if (!Ptr->getType()->isPtrOrPtrVectorTy())
    return Constant::getNullValue(Ptr->getType());
  const Value *Base = getUnderlyingObject(Ptr);
  auto *GV = dyn_cast<GlobalVariable>(Base);
  bool Untracked = isa<Argument>(Base) || (GV && !GV->isConstant());
  if (!Untracked)
    return Constant::getNullValue(Ptr->getType());
  Ctx.Diag.error(At,
                 "a pointer to memory without a shadow (" +
                     Ctx.Diag.describe(*Base) +
                     ", an __ad_const argument or a mutable global) is "
                     "stored in or merged with differentiated memory, so "
                     "derivatives read through it could not be tracked",
                 "pass that memory as __ad_dup with a shadow, or declare a "
                 "read-only global const");
  return nullptr;
}

} // namespace ad
