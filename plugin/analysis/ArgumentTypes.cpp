//===- ArgumentTypes.cpp - What callers pass in a pointer parameter
//--------===//
#include "analysis/ArgumentTypes.h"
#include "rules/KnownFunctions.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace ad {

void ArgumentTypes::addCallsIn(Module &M) {
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (Function *Callee = calledFunction(*Call);
              Callee && !Callee->isDeclaration())
            addCall(Callee, SmallVector<Value *, 4>(Call->args()));
}

void ArgumentTypes::addCall(const Function *F, ArrayRef<Value *> Actuals) {
  Sites[F].emplace_back(Actuals.begin(), Actuals.end());
}

void ArgumentTypes::addClone(const Function *Clone, const Function *Original) {
  Originals[Clone] = Original;
}

SmallVector<const Value *, 4>
ArgumentTypes::actualsFor(const Argument &A) const {
  // The function's own calls, and those of what it is a clone of (a
  // canonical primal of a user function; a derivative, whose leading
  // parameters are its primal's, when an outer derivative copies it).
  SmallVector<const Value *, 4> Actuals;
  for (const Function *F = A.getParent(); F; F = Originals.lookup(F)) {
    auto It = Sites.find(F);
    if (It != Sites.end())
      for (const Site &S : It->second)
        if (A.getArgNo() < S.size())
          Actuals.push_back(S[A.getArgNo()]);
    if (Actuals.size() > 64)
      break;
  }
  return Actuals;
}

Type *ArgumentTypes::pointeeType(const Argument &A) const {
  return pointeeType(A.getParent(), A.getArgNo(), 0);
}

Type *ArgumentTypes::pointeeType(const Function *F, unsigned ArgNo,
                                 unsigned Depth) const {
  // A clone of a derivative of F (nested derivatives) is a clone of F.
  while (const Function *Orig = Originals.lookup(F))
    F = Orig;
  // Only the calls recorded here reach a derivative of F, so callers in
  // other modules do not matter.
  auto It = Sites.find(F);
  if (It == Sites.end())
    return nullptr;
  Type *Common = nullptr;
  for (const Site &S : It->second) {
    if (ArgNo >= S.size())
      return nullptr;
    // Recursion passing the parameter on says nothing new.
    if (auto *A = dyn_cast<Argument>(S[ArgNo]->stripPointerCasts());
        A && A->getArgNo() == ArgNo &&
        (A->getParent() == F || Originals.lookup(A->getParent()) == F))
      continue;
    // A caller passing a pointer of unknown origin says nothing; callers
    // that know must agree.
    Type *T = typeOfActual(S[ArgNo], Depth + 1);
    if (!T)
      continue;
    if (Common && Common != T)
      return nullptr;
    Common = T;
  }
  return Common;
}

/// What \p V points to: the allocation or typed GEP it comes from, the one
/// value stored into the local variable it was loaded from (-O0 keeps
/// parameters in allocas), or the callers' answer for a parameter.
Type *ArgumentTypes::typeOfActual(const Value *V, unsigned Depth) const {
  if (Depth > 4)
    return nullptr;
  V = V->stripPointerCasts();
  if (auto *AI = dyn_cast<AllocaInst>(V))
    return AI->getAllocatedType();
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    return GV->getValueType();
  if (auto *GEP = dyn_cast<GEPOperator>(V))
    return GEP->getResultElementType()->isIntegerTy(8)
               ? nullptr
               : GEP->getResultElementType();
  if (auto *A = dyn_cast<Argument>(V))
    return pointeeType(A->getParent(), A->getArgNo(), Depth);
  if (auto *LI = dyn_cast<LoadInst>(V)) {
    auto *Slot = dyn_cast<AllocaInst>(LI->getPointerOperand());
    if (!Slot)
      return nullptr;
    const StoreInst *Only = nullptr;
    for (const User *U : Slot->users()) {
      if (isa<LoadInst>(U))
        continue;
      auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getPointerOperand() != Slot || Only)
        return nullptr; // Escapes, or stored more than once.
      Only = SI;
    }
    return Only ? typeOfActual(Only->getValueOperand(), Depth + 1) : nullptr;
  }
  return nullptr;
}

} // namespace ad
