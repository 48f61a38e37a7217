//===- ShadowCloning.cpp - A primal's clone and its pointers' shadows -----===//
//
// See ShadowCloning.h. Used by both builders' forward code; nothing here
// knows about adjoints or the tape.
//
//===----------------------------------------------------------------------===//
#include "modes/ShadowCloning.h"
#include "core/IRHelpers.h"
#include "modes/ConstantShadows.h"
#include "primal/Preprocess.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace ad {

void ShadowCloning::cloneBody(Function &Primal, Function &NewF,
                              ArrayRef<Activity> Args) {
  unsigned N = Primal.arg_size();
  for (unsigned I = 0; I < N; ++I)
    VMap[Primal.getArg(I)] = NewF.getArg(I);
  // An active argument's adjoint is a result of the reverse sweep, not a
  // parameter; its tangent is a parameter of the forward one.
  unsigned Next = N;
  for (unsigned I = 0; I < N; ++I)
    if (Args[I] == Activity::Shadowed ||
        (!ForReverse && Args[I] == Activity::Active))
      Shadows[Primal.getArg(I)] = NewF.getArg(Next++);

  AttributeList Saved = NewF.getAttributes();
  SmallVector<ReturnInst *, 1> Returns;
  CloneFunctionInto(&NewF, &Primal, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  restoreDerivativeAttributes(NewF, Saved);
}

/// \p V is an aggregate built by insertvalue from poison with no pointer
/// inserted yet: rustc at -O0 returns `{ i64, ptr }` (an Option<(usize,
/// &T)>) by inserting the integer first. Its pointer fields are poison, and
/// so is its shadow.
static bool insertsNoPointers(const Value *V) {
  while (auto *IV = dyn_cast<InsertValueInst>(V)) {
    if (isPointerLike(IV->getInsertedValueOperand()->getType()))
      return false;
    V = IV->getAggregateOperand();
  }
  return isa<UndefValue>(V); // Poison too.
}

Value *ShadowCloning::shadowOf(Value *Orig, Instruction *User) {
  if (Value *S = Shadows.lookup(Orig))
    return S;
  if (auto *C = dyn_cast<Constant>(Orig))
    if (Constant *S = shadowOfConstant(Ctx.M, C, ForReverse))
      return S;
  if (isa<InsertValueInst>(Orig) && insertsNoPointers(Orig))
    return PoisonValue::get(Orig->getType());
  Ctx.Diag.error(User,
                 "pointer " + Ctx.Diag.describe(*Orig) +
                     " may point to differentiated memory but has no shadow",
                 "pass differentiated pointers as __ad_dup arguments, not "
                 "through globals or integers");
  return nullptr;
}

Value *ShadowCloning::shadowOfPointerBits(Value *Op, Instruction *User) {
  if (isa<ConstantInt>(Op)) // No pointer, no shadow.
    return Constant::getNullValue(Op->getType());
  // Forward mode reads bits without a shadow as a zero tangent, like any
  // value without one; reverse mode reports them, like any pointer whose
  // shadow it cannot find.
  if (!ForReverse) {
    Value *S = Shadows.lookup(Op);
    return S ? S : Constant::getNullValue(Op->getType());
  }
  return shadowOf(Op, User);
}

Instruction *ShadowCloning::shadowCopy(Instruction &I) {
  Instruction *Copy = cast<Instruction>(VMap[&I])->clone();
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    Value *Op = I.getOperand(K);
    Value *OpShadow;
    if (AA.movesPointerBits(Op))
      OpShadow = shadowOfPointerBits(Op, &I);
    else if (isPointerLike(Op->getType()))
      OpShadow = shadowOf(Op, &I);
    else
      continue;
    if (!OpShadow) {
      Copy->deleteValue();
      return nullptr;
    }
    Copy->setOperand(K, OpShadow);
  }
  Copy->setName(I.getName() + ".shadow");
  return Copy;
}

} // namespace ad
