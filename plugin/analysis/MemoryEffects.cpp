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

/// \p W may write \p Loc. A call whose callee writes, besides memory
/// through its pointer arguments, only errno (a libm function's) or memory
/// the program cannot reach is judged by its arguments alone: alias analysis
/// would say any location might be errno, but errno is libc's int, not a
/// buffer of the program.
bool mayWrite(AAResults &AAR, Instruction *W, const MemoryLocation &Loc) {
  auto *Call = dyn_cast<CallBase>(W);
  if (!Call)
    return isModSet(AAR.getModRefInfo(W, Loc));
  MemoryEffects ME = AAR.getMemoryEffects(Call)
                         .getWithoutLoc(IRMemLocation::ErrnoMem)
                         .getWithoutLoc(IRMemLocation::InaccessibleMem);
  if (!ME.onlyAccessesArgPointees())
    return isModSet(AAR.getModRefInfo(W, Loc));
  if (!isModSet(ME.getModRef()))
    return false;
  for (const Use &U : Call->args())
    if (U->getType()->isPointerTy() &&
        !Call->onlyReadsMemory(U.getOperandNo()) &&
        !AAR.isNoAlias(MemoryLocation::getBeforeOrAfter(U), Loc))
      return true;
  return false;
}

bool mayReadAnywhere(AAResults &AAR, Function &F, const MemoryLocation &Loc) {
  for (Instruction &I : instructions(F)) {
    if (!I.mayReadFromMemory())
      continue;
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call) {
      if (isRefSet(AAR.getModRefInfo(&I, Loc)))
        return true;
      continue;
    }
    MemoryEffects ME = AAR.getMemoryEffects(Call)
                           .getWithoutLoc(IRMemLocation::ErrnoMem)
                           .getWithoutLoc(IRMemLocation::InaccessibleMem);
    if (!ME.onlyAccessesArgPointees()) {
      if (isRefSet(AAR.getModRefInfo(&I, Loc)))
        return true;
      continue;
    }
    if (!isRefSet(ME.getModRef()))
      continue;
    for (const Use &U : Call->args())
      if (U->getType()->isPointerTy() &&
          !Call->onlyWritesMemory(U.getOperandNo()) &&
          !AAR.isNoAlias(MemoryLocation::getBeforeOrAfter(U), Loc))
        return true;
  }
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
