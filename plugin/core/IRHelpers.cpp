//===- IRHelpers.cpp - Small IR utilities shared by both modes
//--------------===//
#include "core/IRHelpers.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace ad {

bool isDifferentiableType(Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (Type *E : ST->elements())
      if (isDifferentiableType(E))
        return true;
    return false;
  }
  if (auto *AT = dyn_cast<ArrayType>(T))
    return isDifferentiableType(AT->getElementType());
  return false;
}

/// Leaves are pointers or integers; \p AnyPointer is set if one is a pointer.
static bool pointersAndIntegers(Type *T, bool &AnyPointer) {
  if (T->isPtrOrPtrVectorTy()) {
    AnyPointer = true;
    return true;
  }
  if (T->isIntOrIntVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return all_of(ST->elements(),
                  [&](Type *E) { return pointersAndIntegers(E, AnyPointer); });
  if (auto *AT = dyn_cast<ArrayType>(T))
    return pointersAndIntegers(AT->getElementType(), AnyPointer);
  return false;
}

bool isPointerLike(Type *T) {
  if (T->isPtrOrPtrVectorTy())
    return true;
  bool AnyPointer = false;
  return T->isAggregateType() && pointersAndIntegers(T, AnyPointer) &&
         AnyPointer;
}

Constant *adjointZero(Type *T) {
  if (T->isFPOrFPVectorTy())
    return ConstantFP::getNegativeZero(T);
  if (auto *ST = dyn_cast<StructType>(T)) {
    SmallVector<Constant *, 4> Fields;
    for (Type *E : ST->elements())
      Fields.push_back(adjointZero(E));
    return ConstantStruct::get(ST, Fields);
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    SmallVector<Constant *, 4> Elts(AT->getNumElements(),
                                    adjointZero(AT->getElementType()));
    return ConstantArray::get(AT, Elts);
  }
  return Constant::getNullValue(T);
}

Value *addPositiveZero(IRBuilderBase &B, Value *V) {
  Type *T = V->getType();
  if (T->isFPOrFPVectorTy())
    return B.CreateFAdd(V, Constant::getNullValue(T));
  if (!isDifferentiableType(T))
    return V;
  unsigned N =
      isa<StructType>(T) ? T->getStructNumElements() : T->getArrayNumElements();
  for (unsigned I = 0; I < N; ++I)
    V = B.CreateInsertValue(V, addPositiveZero(B, B.CreateExtractValue(V, I)),
                            I);
  return V;
}

bool isZeroDerivative(const Value *V) {
  auto *C = dyn_cast<Constant>(V);
  if (!C)
    return false;
  if (C->isNullValue() || C->isNegativeZeroValue())
    return true;
  return C == adjointZero(C->getType());
}

Value *addDerivatives(IRBuilderBase &B, Value *A, Value *Bv) {
  Type *T = A->getType();
  if (T->isFPOrFPVectorTy()) {
    if (isZeroDerivative(A))
      return Bv;
    if (isZeroDerivative(Bv))
      return A;
    // Adjoint contributions may be summed in any order (the reverse sweep
    // already sums them in another order than the forward one): reassoc
    // lets the vectorizer keep a partial sum per lane in a reverse loop, as
    // the adjoint of a loop the primal had vectorized already does.
    Value *Sum = B.CreateFAdd(A, Bv);
    if (auto *I = dyn_cast<Instruction>(Sum))
      I->setHasAllowReassoc(true);
    return Sum;
  }
  if (!isDifferentiableType(T))
    return A;
  unsigned N =
      isa<StructType>(T) ? T->getStructNumElements() : T->getArrayNumElements();
  Value *Result = A;
  for (unsigned I = 0; I < N; ++I) {
    Value *X = B.CreateExtractValue(A, I);
    if (!isDifferentiableType(X->getType()))
      continue;
    Value *Y = B.CreateExtractValue(Bv, I);
    Result = B.CreateInsertValue(Result, addDerivatives(B, X, Y), I);
  }
  return Result;
}

Constant *onesOf(Type *T) {
  if (T->isFPOrFPVectorTy())
    return ConstantFP::get(T, 1.0);
  if (auto *ST = dyn_cast<StructType>(T)) {
    SmallVector<Constant *, 4> Fields;
    for (Type *E : ST->elements())
      Fields.push_back(isDifferentiableType(E) ? onesOf(E)
                                               : Constant::getNullValue(E));
    return ConstantStruct::get(ST, Fields);
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    SmallVector<Constant *, 4> Elts(AT->getNumElements(),
                                    onesOf(AT->getElementType()));
    return ConstantArray::get(AT, Elts);
  }
  return Constant::getNullValue(T);
}

bool isParallelDeviceCode(const Module &M) {
  const Triple &T = M.getTargetTriple();
  return T.isNVPTX() || T.isAMDGPU();
}

SmallVector<Instruction *, 8> instructionsUsing(const Value &V) {
  SmallVector<const User *, 8> Work(V.users());
  SmallVector<Instruction *, 8> Found;
  for (size_t I = 0; I < Work.size(); ++I) {
    if (auto *Inst = dyn_cast<Instruction>(Work[I]))
      Found.push_back(const_cast<Instruction *>(Inst));
    else if (isa<ConstantExpr>(Work[I]))
      append_range(Work, Work[I]->users());
  }
  return Found;
}

void accumulateIntoSlot(IRBuilderBase &B, Value *Slot, Value *Delta) {
  Value *Old = B.CreateLoad(Delta->getType(), Slot);
  B.CreateStore(addDerivatives(B, Old, Delta), Slot);
}

/// Adds \p Delta to memory at \p Ptr with one atomic add per floating-point
/// leaf (aggregates and vectors leaf by leaf, at their layout's offsets).
static void atomicAccumulate(IRBuilderBase &B, Value *Ptr, Value *Delta,
                             Align Alignment) {
  Type *T = Delta->getType();
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  if (T->isFloatingPointTy()) {
    // An atomic below its natural alignment becomes a library call
    // (__atomic_compare_exchange) nothing links; the primal's value is
    // naturally aligned where the optimizer only lost track of it (a
    // shared scalar reached through a byte offset), and so is its shadow.
    Align Natural = DL.getABITypeAlign(T);
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, Ptr, Delta,
                      std::max(Alignment, Natural), AtomicOrdering::Monotonic);
    return;
  }
  auto Leaf = [&](Value *Elt, uint64_t Offset) {
    Value *At = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, Offset);
    atomicAccumulate(B, At, Elt, commonAlignment(Alignment, Offset));
  };
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      Leaf(B.CreateExtractValue(Delta, I), SL->getElementOffset(I));
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      Leaf(B.CreateExtractValue(Delta, I), I * Size);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(VT->getElementType());
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Leaf(B.CreateExtractElement(Delta, I), I * Size);
  }
}

void accumulateIntoMemory(IRBuilderBase &B, Value *ShadowPtr, Value *Delta,
                          Align Alignment, bool Atomic) {
  if (Atomic && !isZeroDerivative(Delta)) {
    atomicAccumulate(B, ShadowPtr, Delta, Alignment);
    return;
  }
  // The shadow has the primal's layout, so the primal access's alignment
  // holds for it (and a vector's ABI alignment may not).
  Value *Old = B.CreateAlignedLoad(Delta->getType(), ShadowPtr, Alignment);
  B.CreateAlignedStore(addDerivatives(B, Old, Delta), ShadowPtr, Alignment);
}

Value *convertScalar(IRBuilderBase &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return B.CreateFPCast(V, To);
  // C promotes small integers keeping their sign; an int passed for a long
  // parameter is sign-extended as the C conversion would.
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateSExtOrTrunc(V, To);
  return nullptr;
}

void makeDivisionSafe(IRBuilderBase &B, unsigned Opcode, Value *&L, Value *&R) {
  if (!Instruction::isIntDivRem(Opcode))
    return;
  Type *T = R->getType();
  Value *D = R;
  R = B.CreateSelect(B.CreateICmpEQ(D, ConstantInt::get(T, 0)),
                     ConstantInt::get(T, 1), D);
  if (Opcode == Instruction::SDiv || Opcode == Instruction::SRem) {
    Value *Overflows = B.CreateAnd(
        B.CreateICmpEQ(D, ConstantInt::getAllOnesValue(T)),
        B.CreateICmpEQ(L, ConstantInt::get(T, APInt::getSignedMinValue(
                                                  T->getScalarSizeInBits()))));
    L = B.CreateSelect(Overflows, ConstantInt::get(T, 0), L);
  }
}

} // namespace ad
