//===- StoredPointers.cpp - Pointers without shadows reaching shadowed places
//===//
#include "modes/StoredPointers.h"
#include "analysis/TypeAnalysis.h"
#include "rules/CallRows.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

using namespace llvm;

namespace ad {

/// The memory at \p Ptr is typed (accessed, allocated or tagged as
/// something), and nothing read or written through it, or through any
/// pointer the type analysis relates to it, is a float or a pointer: no
/// derivative can flow through it, so no shadow of it is ever read.
static bool holdsNoDerivatives(ADContext &Ctx, const Value *Ptr) {
  MemoryTypes M = Ctx.Types.memoryAt(Ptr);
  if (M.Truncated || M.facts().empty())
    return false;
  return none_of(M.facts(), [](const TypedBytes &F) {
    return F.Kind != ByteKind::Integer;
  });
}

/// A pointer read from memory that has no shadow (a load through a
/// shadowed pointer would have one), or returned by a function that carries
/// no derivatives: it points to data the differentiated code does not
/// differentiate (a vtable read from the VTT, a library's buffer).
static bool pointsToConstantData(const Value *Base) {
  if (isa<LoadInst>(Base))
    return true;
  // The exception in flight that a landing pad receives (Rust's unwinding
  // code at -O0 keeps it in a local until it resumes): only the unwinder
  // reads through it.
  if (auto *EV = dyn_cast<ExtractValueInst>(Base))
    return isa<LandingPadInst>(EV->getAggregateOperand());
  if (auto *Call = dyn_cast<CallBase>(Base))
    return returnsUntrackedMemory(rowOf(*Call));
  return false;
}

Value *shadowForUnshadowedPointer(ADContext &Ctx, Value *Ptr, Instruction *At) {
  // An aggregate of pointers (a std::pair of nodes) without a shadow was
  // loaded or returned from where no shadow is kept, like a pointer loaded
  // from memory without one: null shadows.
  if (!Ptr->getType()->isPtrOrPtrVectorTy())
    return Constant::getNullValue(Ptr->getType());
  // Code, not data (a std::function's invoker chosen by a select or phi):
  // calls go through the primal pointer, nothing is differentiated in it.
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  if (!Objects.empty() && all_of(Objects, [](const Value *O) {
        return isa<Function>(O) || isa<ConstantPointerNull>(O);
      }))
    return Constant::getNullValue(Ptr->getType());
  const Value *Base = getUnderlyingObject(Ptr);
  auto *GV = dyn_cast<GlobalVariable>(Base);
  bool Untracked = isa<Argument>(Base) || (GV && !GV->isConstant());
  if (!Untracked &&
      (pointsToConstantData(Base) || holdsNoDerivatives(Ctx, Ptr)))
    return Constant::getNullValue(Ptr->getType());
  if (Untracked)
    Ctx.Diag.error(At,
                   "a pointer to memory without a shadow (" +
                       Ctx.Diag.describe(*Base) +
                       ", an __ad_const argument or a mutable global) is "
                       "stored in or merged with differentiated memory, so "
                       "derivatives read through it could not be tracked",
                   "pass that memory as __ad_dup with a shadow, or declare a "
                   "read-only global const");
  else
    Ctx.Diag.error(At,
                   "a pointer of unknown origin (" + Ctx.Diag.describe(*Base) +
                       ") is stored in or merged with differentiated memory; "
                       "it has no shadow, and nothing shows that no "
                       "floating-point data or pointers are read through it",
                   "pass differentiated memory as __ad_dup arguments, or "
                   "allocate it inside the differentiated function");
  return nullptr;
}

} // namespace ad
