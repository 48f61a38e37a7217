//===- HeapEscape.cpp - Heap memory the caller keeps after a gradient -----===//
#include "rules/HeapEscape.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

/// A stack slot that -O0 keeps a parameter in: a store of the parameter
/// into it.
static bool holdsParameter(const AllocaInst &Slot) {
  for (const User *U : Slot.users())
    if (auto *SI = dyn_cast<StoreInst>(U); SI &&
                                           SI->getPointerOperand() == &Slot &&
                                           isa<Argument>(SI->getValueOperand()))
      return true;
  return false;
}

/// Whether \p Ptr addresses memory the caller sees: a global, or memory
/// reached from a parameter (at -O0, through the slot that holds it).
static bool callerSees(const Value *Ptr, unsigned Depth = 0) {
  const Value *Base = getUnderlyingObject(Ptr);
  if (isa<Argument>(Base) || isa<GlobalVariable>(Base))
    return true;
  auto *Loaded = dyn_cast<LoadInst>(Base);
  if (!Loaded || Depth > 8)
    return false;
  const Value *From = getUnderlyingObject(Loaded->getPointerOperand());
  if (auto *Slot = dyn_cast<AllocaInst>(From))
    return holdsParameter(*Slot);
  return callerSees(Loaded->getPointerOperand(), Depth + 1);
}

static bool frees(const CallBase &Call, const Value *Ptr) {
  if (Call.arg_empty() || Call.getArgOperand(0) != Ptr)
    return false;
  CalleeKind Kind = classifyCallee(Call).Kind;
  return Kind == CalleeKind::Free || Kind == CalleeKind::Realloc;
}

/// Where a pointer is stored or loaded: its base (the slot that holds a
/// parameter, for -O0's loads of it) and constant offset.
static std::pair<const Value *, int64_t> location(const Value *Ptr,
                                                  const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base =
      Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                             /*AllowNonInbounds=*/true);
  if (auto *Loaded = dyn_cast<LoadInst>(Base))
    if (auto *Slot = dyn_cast<AllocaInst>(
            getUnderlyingObject(Loaded->getPointerOperand()));
        Slot && holdsParameter(*Slot))
      Base = Slot;
  return {Base, Offset.getSExtValue()};
}

/// Whether the function frees what it stored at one of \p Places: a free of
/// a load from there (`free(heap)` of a global, `free(v->data)`) that may
/// run after the allocation. A
/// reallocation does not free what it returns itself (in a loop, its next
/// run frees the previous block, and the last block stays).
static bool
freesStored(const CallBase &Allocation,
            const SmallVectorImpl<std::pair<const Value *, int64_t>> &Places) {
  const Function &F = *Allocation.getFunction();
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || Call == &Allocation || Call->arg_empty())
        continue;
      auto *Loaded =
          dyn_cast<LoadInst>(Call->getArgOperand(0)->stripPointerCasts());
      if (Loaded && frees(*Call, Call->getArgOperand(0)) &&
          is_contained(Places, location(Loaded->getPointerOperand(), DL)) &&
          isPotentiallyReachable(&Allocation, Call))
        return true;
    }
  return false;
}

bool handedToCaller(const CallBase &Allocation) {
  SmallVector<const Value *, 16> Work{&Allocation};
  SmallPtrSet<const Value *, 16> Seen{&Allocation};
  SmallVector<std::pair<const Value *, int64_t>, 4> Places;
  const DataLayout &DL = Allocation.getModule()->getDataLayout();
  auto Track = [&](const Value *V) {
    if (Seen.insert(V).second)
      Work.push_back(V);
  };
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst, CastInst, PHINode, SelectInst>(U)) {
        Track(U);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() != V)
          continue;
        const Value *To = getUnderlyingObject(SI->getPointerOperand());
        if (auto *Slot = dyn_cast<AllocaInst>(To)) {
          // The function's own slot: what is loaded back is the address.
          for (const User *SlotUser : Slot->users())
            if (auto *LI = dyn_cast<LoadInst>(SlotUser))
              Track(LI);
        } else if (callerSees(SI->getPointerOperand())) {
          Places.push_back(location(SI->getPointerOperand(), DL));
        }
      } else if (auto *Call = dyn_cast<CallBase>(U)) {
        if (Call != &Allocation && frees(*Call, V))
          return false;
      }
    }
  }
  return !Places.empty() && !freesStored(Allocation, Places);
}

} // namespace ad
