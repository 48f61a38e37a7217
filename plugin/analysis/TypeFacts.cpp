//===- TypeFacts.cpp - What one pointer says about its memory -------------===//
#include "analysis/TypeFacts.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Operator.h"
#include <numeric>

using namespace llvm;

namespace ad {

/// Adds the scalars of \p T at \p Base, repeating every \p Period bytes.
/// Padding inside a struct is typed as integer bytes: nothing lives there.
/// Arrays of i8 say nothing (clang lays out a union as its most aligned
/// member followed by i8 padding that covers the other members' bytes), so
/// they add no fact; a lone i8 field is a char.
void flattenType(const DataLayout &DL, Type *T, int64_t Base, uint64_t Period,
                 MemoryTypes &Out) {
  if (!T->isSized() || DL.getTypeStoreSize(T).isScalable())
    return; // Scalable vectors are rejected with a diagnostic.
  auto Add = [&](int64_t Off, uint64_t Size, ByteKind K, Type *FT = nullptr) {
    TypedBytes F;
    F.Offset = Off;
    F.Size = Size;
    F.Period = Period;
    F.Kind = K;
    F.FloatTy = FT;
    Out.add(F);
  };
  if (T->isFloatingPointTy()) {
    Add(Base, DL.getTypeStoreSize(T), ByteKind::Float, T);
  } else if (T->isPointerTy()) {
    Add(Base, DL.getTypeStoreSize(T), ByteKind::Pointer);
  } else if (T->isIntegerTy()) {
    Add(Base, DL.getTypeStoreSize(T), ByteKind::Integer);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    uint64_t ESize = DL.getTypeAllocSize(VT->getElementType());
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      flattenType(DL, VT->getElementType(), Base + I * ESize, Period, Out);
  } else if (auto *ST = dyn_cast<StructType>(T)) {
    if (ST->isOpaque())
      return;
    const StructLayout *SL = DL.getStructLayout(ST);
    uint64_t End = 0;
    for (unsigned I = 0; I < ST->getNumElements(); ++I) {
      uint64_t Off = SL->getElementOffset(I);
      if (Off > End)
        Add(Base + End, Off - End, ByteKind::Integer); // padding
      flattenType(DL, ST->getElementType(I), Base + Off, Period, Out);
      End = Off + DL.getTypeAllocSize(ST->getElementType(I));
    }
    if (SL->getSizeInBytes() > End)
      Add(Base + End, SL->getSizeInBytes() - End, ByteKind::Integer);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    Type *E = AT->getElementType();
    if (E->isIntegerTy(8))
      return; // Raw bytes: a char array, or a union's other members.
    uint64_t ESize = DL.getTypeAllocSize(E);
    if (AT->getNumElements() <= 16) {
      for (uint64_t I = 0; I < AT->getNumElements(); ++I)
        flattenType(DL, E, Base + I * ESize, Period, Out);
      return;
    }
    // A long array: one periodic fact per scalar of the element, held to
    // the array's bytes.
    MemoryTypes Elem;
    flattenType(DL, E, 0, 0, Elem);
    for (TypedBytes F : Elem.facts()) {
      F.Offset += Base;
      F.Period = ESize;
      F.Lo = Base;
      F.Hi = Base + AT->getNumElements() * ESize;
      if (Period) // An array inside an array of structs: the outer period.
        F.Period = std::gcd(F.Period, Period), F.Lo = INT64_MIN,
        F.Hi = INT64_MAX;
      Out.add(F);
    }
  }
}

namespace {

/// The scalar type a clang TBAA type node names, and its size: "double",
/// "float", "int", "any pointer", "p1 float", ... nullptr for a struct
/// node, "omnipotent char" (which may alias anything) and names we do not
/// know.
struct TBAAScalar {
  Type *Ty = nullptr;
  bool IsChar = false;
};

/// The scalar clang's TBAA calls \p N (a type name, or a pointer's
/// "p<depth> <pointee>").
TBAAScalar scalarNamed(LLVMContext &C, const DataLayout &DL, StringRef N) {
  TBAAScalar S;
  if (N == "omnipotent char" || N == "char" || N == "signed char" ||
      N == "unsigned char") {
    S.IsChar = true;
    return S;
  }
  if (N == "any pointer" || N == "vtable pointer" ||
      (N.size() > 2 && N[0] == 'p' && isDigit(N[1]))) {
    S.Ty = PointerType::getUnqual(C);
    return S;
  }
  S.Ty = StringSwitch<Type *>(N)
             .Case("double", Type::getDoubleTy(C))
             .Case("float", Type::getFloatTy(C))
             .Case("long double", Type::getX86_FP80Ty(C))
             .Case("_Float16", Type::getHalfTy(C))
             .Case("__fp16", Type::getHalfTy(C))
             .Case("__bf16", Type::getBFloatTy(C))
             .Cases({"bool", "_Bool"}, Type::getInt8Ty(C))
             .Cases({"short", "char16_t"}, Type::getInt16Ty(C))
             .Cases({"int", "wchar_t", "char32_t"}, Type::getInt32Ty(C))
             .Cases({"long", "long long"},
                    Type::getIntNTy(C, 8 * DL.getPointerSize()))
             .Case("__int128", Type::getInt128Ty(C))
             .Default(nullptr);
  return S;
}

TBAAScalar scalarOfTBAANode(LLVMContext &C, const DataLayout &DL,
                            const MDNode *Node) {
  auto *Name = Node && Node->getNumOperands()
                   ? dyn_cast<MDString>(Node->getOperand(0))
                   : nullptr;
  return Name ? scalarNamed(C, DL, Name->getString()) : TBAAScalar();
}

/// What a TBAA access tag says the access moves: the access type (a
/// struct-path tag is (base, access, offset)), or, for an old scalar tag,
/// the node itself.
const MDNode *accessTypeOfTag(const MDNode *Tag) {
  if (!Tag || Tag->getNumOperands() < 1)
    return nullptr;
  if (Tag->getNumOperands() >= 3)
    if (auto *AccessTy = dyn_cast<MDNode>(Tag->getOperand(1)))
      return AccessTy;
  return Tag;
}

/// The element a pointer TBAA name points to: "p1 double" -> double,
/// "p2 ..." -> a pointer; nullptr for a struct or an unknown name.
Type *pointeeOfPointerTag(LLVMContext &C, const DataLayout &DL,
                          const MDNode *AccessTy) {
  auto *Name = AccessTy && AccessTy->getNumOperands()
                   ? dyn_cast<MDString>(AccessTy->getOperand(0))
                   : nullptr;
  if (!Name)
    return nullptr;
  StringRef Rest = Name->getString();
  unsigned Depth = 0;
  if (!Rest.consume_front("p") || Rest.consumeInteger(10, Depth) ||
      !Rest.consume_front(" "))
    return nullptr;
  if (Depth > 1)
    return PointerType::getUnqual(C);
  return scalarNamed(C, DL, Rest).Ty;
}

/// Adds the fields a TBAA struct type node lists, at \p Base. clang lists
/// an array member as "omnipotent char", which says nothing of its bytes,
/// so only scalar fields are typed; the gap between a scalar field and the
/// next field is padding.
void flattenTBAAStruct(LLVMContext &C, const DataLayout &DL, const MDNode *Node,
                       int64_t Base, uint64_t Period, MemoryTypes &Out,
                       unsigned Depth = 0) {
  if (!Node || Depth > 8)
    return;
  TBAAScalar S = scalarOfTBAANode(C, DL, Node);
  if (S.Ty) {
    flattenType(DL, S.Ty, Base, Period, Out);
    return;
  }
  if (S.IsChar || Node->getNumOperands() < 3 || Node->getNumOperands() % 2 == 0)
    return;
  // A struct node: (name, field type, offset, field type, offset, ...).
  struct Field {
    const MDNode *Ty;
    uint64_t Off;
  };
  SmallVector<Field, 8> Fields;
  for (unsigned K = 1; K + 1 < Node->getNumOperands(); K += 2) {
    auto *FT = dyn_cast<MDNode>(Node->getOperand(K));
    auto *Off = mdconst::dyn_extract<ConstantInt>(Node->getOperand(K + 1));
    if (!FT || !Off)
      return;
    Fields.push_back({FT, Off->getZExtValue()});
  }
  // A scalar node of an unknown name has the shape of a one-field struct
  // (name, parent, 0): its "field" is its parent, which says nothing.
  if (Fields.size() == 1 && Fields[0].Off == 0 &&
      scalarOfTBAANode(C, DL, Fields[0].Ty).IsChar)
    return;
  for (unsigned K = 0; K < Fields.size(); ++K) {
    const Field &F = Fields[K];
    TBAAScalar FS = scalarOfTBAANode(C, DL, F.Ty);
    if (FS.IsChar)
      continue;
    if (!FS.Ty) {
      flattenTBAAStruct(C, DL, F.Ty, Base + F.Off, Period, Out, Depth + 1);
      continue;
    }
    flattenType(DL, FS.Ty, Base + F.Off, Period, Out);
    uint64_t End = F.Off + DL.getTypeStoreSize(FS.Ty);
    if (K + 1 < Fields.size() && Fields[K + 1].Off > End) {
      TypedBytes Pad;
      Pad.Offset = Base + End;
      Pad.Size = Fields[K + 1].Off - End;
      Pad.Period = Period;
      Out.add(Pad);
    }
  }
}

/// Whether an integer access with no TBAA tag may be -O2 moving a float's
/// bits: a load whose value is only stored, or a store of a loaded value
/// or a constant (a small memcpy or memset becomes these). Its type says
/// nothing of the memory; integer arithmetic on a loaded value would.
bool mayMoveFloatBits(const Instruction &Access, Type *T) {
  if (!T->isIntOrIntVectorTy() || T->isIntegerTy(1) ||
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

/// A typed GEP `gep S, p, i, 1` says p points to an array of S (in C, an
/// `S *` may point into one): S repeats every sizeof(S) bytes from p, and
/// the GEP lands inside one of them, Inner bytes from its start.
void gepSourceFacts(const DataLayout &DL, const GEPOperator &GEP,
                    MemoryTypes &Out) {
  Type *Src = GEP.getSourceElementType();
  if (Src->isIntegerTy(8) || !Src->isSized() ||
      DL.getTypeAllocSize(Src).isScalable())
    return;
  // The offset of the inner indices must be constant to place S.
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  APInt Inner(Bits, 0);
  Type *Cur = Src;
  for (auto It = std::next(GEP.idx_begin()); It != GEP.idx_end(); ++It) {
    auto *CI = dyn_cast<ConstantInt>(It->get());
    if (!CI)
      return;
    if (auto *ST = dyn_cast<StructType>(Cur)) {
      unsigned Field = CI->getZExtValue();
      Inner += DL.getStructLayout(ST)->getElementOffset(Field);
      Cur = ST->getElementType(Field);
    } else {
      Cur = GetElementPtrInst::getTypeAtIndex(Cur, CI);
      if (!Cur || !Cur->isSized() || DL.getTypeAllocSize(Cur).isScalable())
        return;
      Inner += CI->getSExtValue() * DL.getTypeAllocSize(Cur);
    }
  }
  uint64_t Period = DL.getTypeAllocSize(Src);
  if (!Period)
    return;
  flattenType(DL, Src, -Inner.getSExtValue(), Period, Out);
}

/// clang describes a struct copy in !tbaa.struct: (offset, size, tag) per
/// field, and bytes no field covers are padding (LangRef: "need not be
/// preserved"). An array member is listed with a char tag, which says
/// nothing of its elements. A copy loop turned into memcpy keeps its
/// element's access tag instead.
void transferFacts(const DataLayout &DL, const MemTransferInst &MT,
                   MemoryTypes &Out) {
  LLVMContext &C = MT.getContext();
  auto *Len = dyn_cast<ConstantInt>(MT.getLength());
  if (const MDNode *Tag = MT.getMetadata(LLVMContext::MD_tbaa)) {
    TBAAScalar S = scalarOfTBAANode(C, DL, accessTypeOfTag(Tag));
    if (S.Ty) {
      MemoryTypes Elem;
      flattenType(DL, S.Ty, 0, DL.getTypeStoreSize(S.Ty), Elem);
      for (TypedBytes F : Elem.facts()) {
        F.Lo = 0;
        F.Hi = Len ? int64_t(Len->getZExtValue()) : INT64_MAX;
        Out.add(F);
      }
    }
  }
  const MDNode *MD = MT.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!MD || !Len || MD->getNumOperands() % 3 != 0)
    return;
  uint64_t End = 0; // Fields come in increasing offsets.
  auto Padding = [&](uint64_t From, uint64_t To) {
    if (To <= From)
      return;
    TypedBytes Pad;
    Pad.Offset = From;
    Pad.Size = To - From;
    Out.add(Pad);
  };
  for (unsigned K = 0; K < MD->getNumOperands(); K += 3) {
    auto *Off = mdconst::dyn_extract<ConstantInt>(MD->getOperand(K));
    auto *Size = mdconst::dyn_extract<ConstantInt>(MD->getOperand(K + 1));
    auto *Tag = dyn_cast<MDNode>(MD->getOperand(K + 2));
    if (!Off || !Size || !Tag || Off->getZExtValue() < End)
      return;
    Padding(End, Off->getZExtValue());
    End = Off->getZExtValue() + Size->getZExtValue();
    TBAAScalar S = scalarOfTBAANode(C, DL, accessTypeOfTag(Tag));
    if (S.IsChar && Size->getZExtValue() == 1)
      S.Ty = Type::getInt8Ty(C); // One char: nothing else fits in a byte.
    if (!S.Ty)
      continue; // An array of anything, listed as chars.
    TypedBytes F;
    F.Offset = Off->getSExtValue();
    F.Size = Size->getZExtValue();
    if (S.Ty->isFloatingPointTy())
      F.Kind = ByteKind::Float, F.FloatTy = S.Ty;
    else if (S.Ty->isPointerTy())
      F.Kind = ByteKind::Pointer;
    Out.add(F);
  }
  Padding(End, Len->getZExtValue());
}

void useFacts(const DataLayout &DL, const Use &U, MemoryTypes &Out) {
  const User *Usr = U.getUser();
  LLVMContext &C = Usr->getContext();
  const Instruction *Access = nullptr;
  Type *Ty = nullptr;
  if (auto *LI = dyn_cast<LoadInst>(Usr)) {
    Access = LI;
    Ty = LI->getType();
  } else if (auto *SI = dyn_cast<StoreInst>(Usr);
             SI && SI->getPointerOperand() == U.get()) {
    Access = SI;
    Ty = SI->getValueOperand()->getType();
  }
  if (Access) {
    const MDNode *Tag = Access->getMetadata(LLVMContext::MD_tbaa);
    // A struct-path tag (base, access, offset) describes the whole base.
    if (Tag && Tag->getNumOperands() >= 3)
      if (auto *Base = dyn_cast<MDNode>(Tag->getOperand(0));
          Base && Base != Tag->getOperand(1))
        if (auto *Off = mdconst::dyn_extract<ConstantInt>(Tag->getOperand(2)))
          flattenTBAAStruct(C, DL, Base, -Off->getSExtValue(), 0, Out);
    TBAAScalar S = scalarOfTBAANode(C, DL, accessTypeOfTag(Tag));
    if (S.IsChar)
      return;
    // -O2 moves a double (or a pointer) as an i64 but keeps the "double"
    // (or "p1 ...") tag.
    if (S.Ty && Ty->isIntegerTy() &&
        (S.Ty->isFloatingPointTy() || S.Ty->isPointerTy()) &&
        DL.getTypeStoreSize(S.Ty) == DL.getTypeStoreSize(Ty))
      Ty = S.Ty;
    if (Ty->isIntegerTy(8) || mayMoveFloatBits(*Access, Ty))
      return;
    flattenType(DL, Ty, 0, 0, Out);
    return;
  }
  auto *Call = dyn_cast<CallBase>(Usr);
  if (!Call || !Call->isArgOperand(&U))
    return;
  if (auto *MT = dyn_cast<MemTransferInst>(Call))
    transferFacts(DL, *MT, Out);
  else if (auto *II = dyn_cast<IntrinsicInst>(Call)) {
    // A masked vector access moves lanes of its data type.
    if (II->getIntrinsicID() == Intrinsic::masked_load &&
        Call->getArgOperandNo(&U) == 0)
      flattenType(DL, II->getType(), 0, 0, Out);
    if (II->getIntrinsicID() == Intrinsic::masked_store &&
        Call->getArgOperandNo(&U) == 1)
      flattenType(DL, II->getArgOperand(0)->getType(), 0, 0, Out);
  }
}

} // namespace

void collectLocalFacts(const DataLayout &DL, const Value *V, MemoryTypes &Out) {
  LLVMContext &C = V->getContext();
  if (auto *AI = dyn_cast<AllocaInst>(V)) {
    uint64_t Period = 0;
    if (AI->isArrayAllocation() &&
        !DL.getTypeAllocSize(AI->getAllocatedType()).isScalable())
      Period = DL.getTypeAllocSize(AI->getAllocatedType());
    flattenType(DL, AI->getAllocatedType(), 0, Period, Out);
  } else if (auto *GV = dyn_cast<GlobalVariable>(V)) {
    flattenType(DL, GV->getValueType(), 0, 0, Out);
  } else if (auto *GEP = dyn_cast<GEPOperator>(V)) {
    gepSourceFacts(DL, *GEP, Out);
  } else if (auto *LI = dyn_cast<LoadInst>(V)) {
    // A pointer loaded with a pointer tag: "p1 double" points to doubles.
    if (Type *T = pointeeOfPointerTag(
            C, DL, accessTypeOfTag(LI->getMetadata(LLVMContext::MD_tbaa))))
      flattenType(DL, T, 0, DL.getTypeStoreSize(T), Out);
  }
  for (const Use &U : V->uses())
    useFacts(DL, U, Out);
}

std::optional<CopyContent> contentByTag(const Instruction &Access,
                                        uint64_t Size) {
  const MDNode *Tag = Access.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag)
    return std::nullopt;
  const DataLayout &DL = Access.getDataLayout();
  TBAAScalar S =
      scalarOfTBAANode(Access.getContext(), DL, accessTypeOfTag(Tag));
  if (!S.Ty || DL.getTypeStoreSize(S.Ty) != Size)
    return std::nullopt;
  CopyContent C;
  C.AllKnown = true;
  if (S.Ty->isFloatingPointTy())
    C.AnyFloat = true, C.WholeFloat = S.Ty;
  else if (S.Ty->isPointerTy())
    C.AnyPointer = true;
  return C;
}

} // namespace ad
