//===- ConstantCallees.cpp - Calls through pointers fixed at compile time -===//
#include "primal/ConstantCallees.h"
#include "analysis/MemoryEffects.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

/// The one function \p V can be, or nullptr.
Function *fixedFunction(Value *V, const DataLayout &DL,
                        SmallPtrSetImpl<Value *> &Seen) {
  V = V->stripPointerCasts();
  if (auto *F = dyn_cast<Function>(V))
    return F;
  if (!Seen.insert(V).second || Seen.size() > 16)
    return nullptr;
  // A load from a global nothing writes: fold its initializer at the
  // load's offset (a field of a constant table of operations).
  if (auto *LI = dyn_cast<LoadInst>(V)) {
    if (LI->isVolatile())
      return nullptr;
    APInt Offset(DL.getIndexTypeSizeInBits(LI->getPointerOperandType()), 0);
    Value *Base = LI->getPointerOperand()->stripAndAccumulateConstantOffsets(
        DL, Offset, /*AllowNonInbounds=*/true);
    auto *GV = dyn_cast<GlobalVariable>(Base);
    if (!GV || !GV->hasDefinitiveInitializer() || !isReadOnlyGlobal(GV))
      return nullptr;
    Constant *C = ConstantFoldLoadFromConst(GV->getInitializer(), LI->getType(),
                                            Offset, DL);
    return C ? fixedFunction(C, DL, Seen) : nullptr;
  }
  // Every way in leads to the same function.
  SmallVector<Value *, 4> Incoming;
  if (auto *Sel = dyn_cast<SelectInst>(V))
    Incoming = {Sel->getTrueValue(), Sel->getFalseValue()};
  else if (auto *Phi = dyn_cast<PHINode>(V))
    Incoming.append(Phi->incoming_values().begin(),
                    Phi->incoming_values().end());
  Function *Common = nullptr;
  for (Value *In : Incoming) {
    if (In == V)
      continue;
    Function *F = fixedFunction(In, DL, Seen);
    if (!F || (Common && F != Common))
      return nullptr;
    Common = F;
  }
  return Common;
}

} // namespace

unsigned resolveConstantCallees(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  unsigned Resolved = 0;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || Call->isInlineAsm() || Call->getCalledFunction())
        continue;
      SmallPtrSet<Value *, 8> Seen;
      Function *Callee = fixedFunction(Call->getCalledOperand(), DL, Seen);
      // A prototype that does not match the call's (an old-style C
      // declaration) is left to the indirect call's diagnostics.
      if (!Callee || Callee->getFunctionType() != Call->getFunctionType())
        continue;
      Call->setCalledFunction(Callee);
      ++Resolved;
    }
  return Resolved;
}

} // namespace ad
