//===- ConstantShadows.cpp - Shadows of read-only globals
//-------------------===//
#include "modes/ConstantShadows.h"
#include "analysis/MemoryEffects.h"
#include "core/IRHelpers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {
namespace {

/// The shadow's initial contents: zero, except that pointers inside the
/// initializer point to the shadows of their targets. A pointer to memory
/// that has no shadow (run-time type information, an external table) gets a
/// null shadow: nothing differentiable is reached through it.
Constant *shadowInitializer(Module &M, Constant *Init, bool ForReverse) {
  Type *T = Init->getType();
  if (T->isPointerTy()) {
    Constant *S = shadowOfConstant(M, Init, ForReverse);
    return S ? S : Constant::getNullValue(T);
  }
  if (!isa<ConstantAggregate>(Init))
    return Constant::getNullValue(T);
  SmallVector<Constant *, 8> Elts;
  for (unsigned I = 0, E = Init->getNumOperands(); I < E; ++I) {
    Constant *S =
        shadowInitializer(M, cast<Constant>(Init->getOperand(I)), ForReverse);
    if (!S)
      return nullptr;
    Elts.push_back(S);
  }
  if (auto *ST = dyn_cast<StructType>(T))
    return ConstantStruct::get(ST, Elts);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return ConstantArray::get(AT, Elts);
  return ConstantVector::get(Elts);
}

/// Rust's alignments, which its dangling pointers equal: a power of two up
/// to a page (a larger alignment is rare, and a larger constant address is
/// more likely a real one).
bool isDanglingAlignment(const APInt &Address) {
  constexpr uint64_t LargestDanglingAlignment = 4096;
  return Address.isPowerOf2() && Address.ule(LargestDanglingAlignment);
}

} // namespace

Constant *shadowOfConstant(Module &M, Constant *C, bool ForReverse) {
  if (isa<ConstantPointerNull>(C))
    return C;
  // Code carries no derivative: a function pointer (in a vtable, a table of
  // callbacks) has a null shadow.
  if (isa<Function>(C) || isa<GlobalAlias>(C) || isa<GlobalIFunc>(C) ||
      isa<BlockAddress>(C))
    return Constant::getNullValue(C->getType());
  if (isa<UndefValue>(C))
    return PoisonValue::get(C->getType());
  // An aggregate of pointers and integers (a std::pair of tree nodes): the
  // pointers' shadows in place, the integers as they are.
  if (C->getType()->isAggregateType() && isPointerLike(C->getType())) {
    if (C->isNullValue())
      return C;
    auto *CA = dyn_cast<ConstantAggregate>(C);
    if (!CA)
      return nullptr;
    SmallVector<Constant *, 4> Elts;
    for (Use &U : CA->operands()) {
      auto *E = cast<Constant>(U.get());
      Constant *S =
          isPointerLike(E->getType()) ? shadowOfConstant(M, E, ForReverse) : E;
      if (!S)
        return nullptr;
      Elts.push_back(S);
    }
    if (auto *ST = dyn_cast<StructType>(C->getType()))
      return ConstantStruct::get(ST, Elts);
    return ConstantArray::get(cast<ArrayType>(C->getType()), Elts);
  }
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    // A mutable global that differentiated code writes derivatives into has
    // one shadow for both modes (MutableGlobals.h).
    if (GlobalVariable *S = mutableGlobalShadow(*GV))
      return S;
    if (!isReadOnlyGlobal(GV))
      return nullptr;
    // A constant defined in another file (a C++ vtable, type information,
    // an extern const table): its contents are unknown here, so its shadow
    // is all zeros, of its declared size; a declaration of unknown size
    // (extern const double t[]) cannot have one.
    const DataLayout &DL = M.getDataLayout();
    if (!GV->hasInitializer() &&
        (!GV->getValueType()->isSized() ||
         DL.getTypeAllocSize(GV->getValueType()).isZero()))
      return nullptr;
    std::string Name =
        (GV->getName() + (ForReverse ? ".ad.sink" : ".ad.zero")).str();
    if (GlobalVariable *S = M.getNamedGlobal(Name))
      return S;
    // Create it first, so that a self-referencing initializer finds it.
    auto *S =
        new GlobalVariable(M, GV->getValueType(), /*isConstant=*/!ForReverse,
                           GlobalValue::InternalLinkage, nullptr, Name);
    S->setAlignment(GV->getAlign());
    Constant *Init =
        GV->hasInitializer()
            ? shadowInitializer(M, GV->getInitializer(), ForReverse)
            : Constant::getNullValue(GV->getValueType());
    if (!Init) {
      S->eraseFromParent();
      return nullptr;
    }
    S->setInitializer(Init);
    return S;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    // A dangling address (Rust's empty Vec holds NonNull::dangling(),
    // `inttoptr (i64 8 to ptr)`: its alignment, and never reads through it
    // while its capacity is 0) has the same address as its shadow, as
    // dangling and as unread. Only small powers of two are such addresses:
    // a real fixed address (a device register) is not its own shadow.
    if (CE->getOpcode() == Instruction::IntToPtr)
      if (auto *Address = dyn_cast<ConstantInt>(CE->getOperand(0)))
        return isDanglingAlignment(Address->getValue()) ? C : nullptr;
    if (CE->getOpcode() != Instruction::GetElementPtr && !CE->isCast())
      return nullptr;
    Constant *Base = shadowOfConstant(M, CE->getOperand(0), ForReverse);
    if (!Base)
      return nullptr;
    SmallVector<Constant *, 4> Ops;
    for (Use &U : CE->operands())
      Ops.push_back(cast<Constant>(U.get()));
    Ops[0] = Base;
    return CE->getWithOperands(Ops);
  }
  return nullptr;
}

GlobalVariable *mutableGlobalShadow(const GlobalVariable &GV) {
  if (!GV.hasName())
    return nullptr;
  const Module *M = GV.getParent();
  return const_cast<Module *>(M)->getNamedGlobal(
      (GV.getName() + MutableShadowSuffix).str());
}

bool hasConstantShadow(const Value *V) {
  auto *C = dyn_cast<Constant>(V);
  if (!C || isa<ConstantPointerNull>(C))
    return false;
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(C));
  return GV && isReadOnlyGlobal(GV);
}

} // namespace ad
