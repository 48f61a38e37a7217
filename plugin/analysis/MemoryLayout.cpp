//===- MemoryLayout.cpp - Where the floating-point data sits in raw memory
//--===//
#include "analysis/MemoryLayout.h"
#include "analysis/ArgumentTypes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace ad {
namespace {

void flatten(const DataLayout &DL, Type *T, uint64_t Base, MemoryLayout &L) {
  if (T->isFloatingPointTy()) {
    L.Floats.push_back({Base, T});
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    uint64_t ESize = DL.getTypeAllocSize(VT->getElementType());
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      flatten(DL, VT->getElementType(), Base + I * ESize, L);
  } else if (T->isPointerTy()) {
    L.HasPointers = true;
    L.Others.push_back({Base, T});
  } else if (T->isIntegerTy()) {
    L.Others.push_back({Base, T});
  } else if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      flatten(DL, ST->getElementType(I), Base + SL->getElementOffset(I), L);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t ESize = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      flatten(DL, AT->getElementType(), Base + I * ESize, L);
  }
}

/// Strips arrays down to their element: a copy of part of an array is a
/// copy of whole elements.
Type *elementOf(Type *T) {
  while (auto *AT = dyn_cast<ArrayType>(T))
    T = AT->getElementType();
  return T;
}

/// A type that says something about the memory (i8 says nothing).
bool informative(Type *T) {
  T = elementOf(T);
  return !T->isIntegerTy(8) && T->isSized() && !T->isVoidTy();
}

Type *typeFromDefinition(const Value *P) {
  for (int Depth = 0; Depth < 8; ++Depth) {
    if (auto *AI = dyn_cast<AllocaInst>(P))
      return AI->getAllocatedType();
    if (auto *GV = dyn_cast<GlobalVariable>(P))
      return GV->getValueType();
    if (auto *GEP = dyn_cast<GEPOperator>(P)) {
      if (informative(GEP->getResultElementType()))
        return GEP->getResultElementType();
      P = GEP->getPointerOperand();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

Type *typeFromTBAATag(LLVMContext &C, const MDNode *Tag);

/// The scalar an access of IR type \p T really moves: -O2 loads and stores
/// a double as an i64 but keeps the "double" TBAA tag (struct-path tags
/// name the accessed scalar second).
Type *accessedType(const Instruction &Access, Type *T) {
  const MDNode *Tag = Access.getMetadata(LLVMContext::MD_tbaa);
  if (!T->isIntegerTy() || !Tag || Tag->getNumOperands() < 2)
    return T;
  auto *Scalar = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Scalar)
    return T;
  Type *Named = typeFromTBAATag(Access.getContext(),
                                MDNode::get(Access.getContext(), {Scalar}));
  if (Named && Named->isFloatingPointTy() &&
      Named->getPrimitiveSizeInBits() == T->getPrimitiveSizeInBits())
    return Named;
  return T;
}

/// An untagged integer access that may be -O2 moving a float's bits: a load
/// whose value is only stored, or a store of a loaded value or a constant
/// (a small memcpy or memset becomes these). Its type says nothing of the
/// memory; integer arithmetic on a loaded value would.
bool mayMoveFloatBits(const Instruction &Access, Type *T) {
  if (!T->isIntegerTy() || T->isIntegerTy(1) ||
      Access.getMetadata(LLVMContext::MD_tbaa))
    return false;
  if (auto *SI = dyn_cast<StoreInst>(&Access))
    return isa<LoadInst>(SI->getValueOperand()) ||
           isa<Constant>(SI->getValueOperand());
  return all_of(Access.users(), [&](const User *U) {
    auto *SI = dyn_cast<StoreInst>(U);
    return SI && SI->getValueOperand() == &Access;
  });
}

/// Collects the types the pointer is accessed with: loads, stores and GEPs
/// through it, through constant byte offsets from it (a field at -O2), and
/// after it flows through phis and selects (a buffer grown in a loop).
void collectUseTypes(const Value *P, SmallPtrSetImpl<const Value *> &Seen,
                     SmallSetVector<Type *, 4> &Types) {
  if (!Seen.insert(P).second || Seen.size() > 64)
    return;
  for (const User *U : P->users()) {
    if (auto *LI = dyn_cast<LoadInst>(U)) {
      if (Type *T = accessedType(*LI, LI->getType());
          informative(T) && !mayMoveFloatBits(*LI, T))
        Types.insert(T);
    } else if (auto *SI = dyn_cast<StoreInst>(U)) {
      Type *T = accessedType(*SI, SI->getValueOperand()->getType());
      if (SI->getPointerOperand() == P && informative(T) &&
          !mayMoveFloatBits(*SI, T))
        Types.insert(T);
    } else if (auto *GEP = dyn_cast<GEPOperator>(U)) {
      if (GEP->getPointerOperand() != P)
        continue;
      if (informative(GEP->getSourceElementType()))
        Types.insert(GEP->getSourceElementType());
      else if (GEP->hasAllConstantIndices())
        collectUseTypes(GEP, Seen, Types);
    } else if (isa<PHINode>(U) || isa<SelectInst>(U)) {
      collectUseTypes(U, Seen, Types);
    } else if (auto *MT = dyn_cast<MemTransferInst>(U)) {
      // A copy loop turned into memcpy keeps its element's access tag.
      if (Type *T = typeFromTBAATag(MT->getContext(),
                                    MT->getMetadata(LLVMContext::MD_tbaa)))
        if (informative(T))
          Types.insert(T);
    }
  }
  // The values flowing into a phi are the same memory.
  if (auto *Phi = dyn_cast<PHINode>(P))
    for (const Value *In : Phi->incoming_values())
      collectUseTypes(In, Seen, Types);
}

/// The element type the uses agree on: an aggregate named by a GEP wins
/// (it describes every field); otherwise all accesses must have one type.
/// Disagreeing scalars (an int field and a double field reached through
/// byte offsets) leave the layout unknown rather than guessed.
Type *typeFromUses(const Value *P) {
  SmallPtrSet<const Value *, 16> Seen;
  SmallSetVector<Type *, 4> Types;
  collectUseTypes(P, Seen, Types);
  for (Type *T : Types)
    if (isa<StructType>(elementOf(T)))
      return T;
  Type *Common = nullptr;
  for (Type *T : Types) {
    T = elementOf(T);
    if (auto *VT = dyn_cast<FixedVectorType>(T))
      T = VT->getElementType();
    if (Common && Common != T)
      return nullptr;
    Common = T;
  }
  return Common;
}

Type *deduceType(const Value *P, const ArgumentTypes *Args) {
  if (!P)
    return nullptr;
  if (Type *T = typeFromDefinition(P); T && informative(T))
    return T;
  if (Type *T = typeFromUses(P))
    return T;
  // A bare pointer parameter (-O0's `*d = *s`): ask the callers.
  if (auto *A = dyn_cast<Argument>(P->stripPointerCasts()); A && Args)
    if (Type *T = Args->pointeeType(*A); T && informative(T))
      return T;
  return nullptr;
}

/// The scalar type a TBAA access tag names: clang's type names are
/// "double", "float", "long double", "any pointer" and "p<N> <pointee>".
Type *typeFromTBAATag(LLVMContext &C, const MDNode *Tag) {
  if (!Tag || Tag->getNumOperands() < 1)
    return nullptr;
  auto *TypeNode = dyn_cast<MDNode>(Tag->getOperand(0));
  if (!TypeNode || TypeNode->getNumOperands() < 1)
    return nullptr;
  auto *Name = dyn_cast<MDString>(TypeNode->getOperand(0));
  if (!Name)
    return nullptr;
  StringRef N = Name->getString();
  if (N == "double")
    return Type::getDoubleTy(C);
  if (N == "float")
    return Type::getFloatTy(C);
  if (N == "long double")
    return Type::getX86_FP80Ty(C);
  if (N == "any pointer" || (N.size() > 2 && N[0] == 'p' && isDigit(N[1])))
    return PointerType::getUnqual(C);
  return Type::getInt8Ty(C); // Integers and chars: no derivative.
}

std::optional<MemoryLayout> layoutFromTBAAStruct(const DataLayout &DL,
                                                 const Instruction &I) {
  // A copy of scalars of one type (a copy loop turned into memcpy) carries
  // an ordinary access tag naming that type.
  if (const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa)) {
    Type *T = typeFromTBAATag(I.getContext(), Tag);
    if (T && !T->isIntegerTy(8)) {
      MemoryLayout L;
      L.Stride = DL.getTypeAllocSize(T);
      flatten(DL, T, 0, L);
      return L;
    }
  }
  const MDNode *MD = I.getMetadata(LLVMContext::MD_tbaa_struct);
  auto *Len = dyn_cast<ConstantInt>(I.getOperand(2));
  if (!MD || !Len || MD->getNumOperands() % 3 != 0)
    return std::nullopt;
  MemoryLayout L;
  L.Stride = Len->getZExtValue();
  for (unsigned K = 0; K < MD->getNumOperands(); K += 3) {
    auto *Off = mdconst::dyn_extract<ConstantInt>(MD->getOperand(K));
    auto *Tag = dyn_cast<MDNode>(MD->getOperand(K + 2));
    Type *T = typeFromTBAATag(I.getContext(), Tag);
    if (!Off || !T)
      return std::nullopt;
    if (T->isFloatingPointTy())
      L.Floats.push_back({Off->getZExtValue(), T});
    else
      L.Others.push_back({Off->getZExtValue(), T});
    L.HasPointers |= T->isPointerTy();
  }
  return L;
}

} // namespace

std::optional<MemoryLayout>
deduceMemoryLayout(const DataLayout &DL, const Value *Ptr, const Value *Other,
                   const Instruction *Transfer, const ArgumentTypes *Args) {
  if (Transfer)
    if (std::optional<MemoryLayout> L = layoutFromTBAAStruct(DL, *Transfer))
      return L;
  Type *T = deduceType(Ptr, Args);
  if (!T)
    T = deduceType(Other, Args);
  if (!T)
    return std::nullopt;
  T = elementOf(T);
  MemoryLayout L;
  L.Stride = DL.getTypeAllocSize(T);
  if (L.Stride == 0)
    return std::nullopt;
  flatten(DL, T, 0, L);
  return L;
}

std::optional<Type *> floatMovedByIntegerAccess(const DataLayout &DL,
                                                const Instruction &Access,
                                                const Value *Ptr,
                                                uint64_t Size) {
  // A struct-path tag is (base type, access type, offset); the access type
  // is the scalar actually moved.
  if (const MDNode *Tag = Access.getMetadata(LLVMContext::MD_tbaa)) {
    const MDNode *Scalar = Tag;
    if (Tag->getNumOperands() >= 3)
      if (auto *AccessTy = dyn_cast<MDNode>(Tag->getOperand(1)))
        Scalar = MDNode::get(Access.getContext(), {AccessTy});
    Type *T = typeFromTBAATag(Access.getContext(), Scalar);
    if (T && !T->isIntegerTy(8)) // char says nothing: it may alias anything.
      return T->isFloatingPointTy() && DL.getTypeStoreSize(T) == Size ? T
                                                                      : nullptr;
  }
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  Type *Def = nullptr;
  if (auto *AI = dyn_cast<AllocaInst>(Base))
    Def = AI->getAllocatedType();
  else if (auto *GV = dyn_cast<GlobalVariable>(Base))
    Def = GV->getValueType();
  else if (auto *GEP = dyn_cast<GEPOperator>(Base))
    Def = GEP->getResultElementType();
  if (!Def || !informative(Def) || Offset.isNegative())
    return std::nullopt;
  Def = elementOf(Def);
  TypeSize AllocSize = DL.getTypeAllocSize(Def);
  if (AllocSize.isScalable() || AllocSize.isZero())
    return std::nullopt;
  uint64_t Stride = AllocSize.getFixedValue();
  MemoryLayout L;
  flatten(DL, Def, 0, L);
  uint64_t At = Offset.getZExtValue() % Stride;
  for (const FloatField &F : L.Floats) {
    uint64_t FSize = DL.getTypeStoreSize(F.Ty);
    if (F.Offset == At && FSize == Size)
      return F.Ty;
    if (F.Offset < At + Size && At < F.Offset + FSize)
      return std::nullopt; // Part of a float, or several: not a plain copy.
  }
  return nullptr;
}

} // namespace ad
