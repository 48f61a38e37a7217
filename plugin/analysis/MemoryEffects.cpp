//===- MemoryEffects.cpp - What instructions may write --------------------===//
#include "analysis/MemoryEffects.h"
#include "rules/CallRows.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {
namespace {

/// Whether every use only reads through the pointer: loads, address
/// arithmetic, comparisons, the source of a memcpy, or an initializer of a
/// global that is itself only read.
bool onlyRead(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return true;
  if (Seen.size() > 256)
    return false;
  for (const Use &U : V->uses()) {
    const User *Usr = U.getUser();
    if (isa<LoadInst>(Usr) || isa<CmpInst>(Usr))
      continue;
    if (auto *MT = dyn_cast<MemTransferInst>(Usr); MT && U.getOperandNo() == 1)
      continue;
    if (isa<GetElementPtrInst>(Usr) || isa<CastInst>(Usr) ||
        isa<ConstantExpr>(Usr) || isa<ConstantAggregate>(Usr) ||
        isa<PHINode>(Usr) || isa<SelectInst>(Usr)) {
      if (!onlyRead(Usr, Seen))
        return false;
      continue;
    }
    if (auto *Holder = dyn_cast<GlobalVariable>(Usr)) {
      if (!onlyRead(Holder, Seen))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

} // namespace

bool writesProgramMemory(const Instruction &I) {
  if (auto *Call = dyn_cast<CallBase>(&I);
      Call && !rowOf(*Call).WritesProgramMemory)
    return false;
  return I.mayWriteToMemory();
}

/// \p I may access \p Loc the way \p Access says (ModRefInfo::Mod: write,
/// Ref: read). A call whose callee accesses, besides memory through its
/// pointer arguments, only errno (a libm function's) or memory the program
/// cannot reach is judged by its arguments alone: alias analysis would say
/// any location might be errno, but errno is libc's int, not a buffer of
/// the program.
static bool mayAccess(AAResults &AAR, Instruction *I, const MemoryLocation &Loc,
                      ModRefInfo Access) {
  auto *Call = dyn_cast<CallBase>(I);
  if (!Call)
    return isModOrRefSet(AAR.getModRefInfo(I, Loc) & Access);
  MemoryEffects ME = AAR.getMemoryEffects(Call)
                         .getWithoutLoc(IRMemLocation::ErrnoMem)
                         .getWithoutLoc(IRMemLocation::InaccessibleMem);
  if (!ME.onlyAccessesArgPointees())
    return isModOrRefSet(AAR.getModRefInfo(I, Loc) & Access);
  if (!isModOrRefSet(ME.getModRef() & Access))
    return false;
  bool Write = isModSet(Access);
  for (const Use &U : Call->args())
    if (U->getType()->isPointerTy() &&
        !(Write ? Call->onlyReadsMemory(U.getOperandNo())
                : Call->onlyWritesMemory(U.getOperandNo())) &&
        !AAR.isNoAlias(MemoryLocation::getBeforeOrAfter(U), Loc))
      return true;
  return false;
}

bool mayWrite(AAResults &AAR, Instruction *W, const MemoryLocation &Loc) {
  return mayAccess(AAR, W, Loc, ModRefInfo::Mod);
}

bool mayReadAnywhere(AAResults &AAR, Function &F, const MemoryLocation &Loc) {
  for (Instruction &I : instructions(F))
    if (I.mayReadFromMemory() && mayAccess(AAR, &I, Loc, ModRefInfo::Ref))
      return true;
  return false;
}

bool isReadOnlyGlobal(const GlobalVariable *GV) {
  if (GV->isConstant())
    return true;
  if (!GV->hasLocalLinkage() || !GV->hasInitializer())
    return false;
  SmallPtrSet<const Value *, 16> Seen;
  return onlyRead(GV, Seen);
}

} // namespace ad
