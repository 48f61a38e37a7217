//===- TypeAnalysis.cpp - What the bytes of memory hold -------------------===//
//
// memoryAt(P) explores, from P, every pointer that is P plus an offset
// (Explorer below), collecting what each says about its bytes (FactSource),
// shifted to be relative to P. MemoryTypes then resolves the facts over a
// window of bytes (Resolver).
//
//===----------------------------------------------------------------------===//
#include "analysis/TypeAnalysis.h"
#include "analysis/ArgumentTypes.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <numeric>

using namespace llvm;

static cl::opt<bool> ExplainTypes(
    "ad-explain-types", cl::Hidden,
    cl::desc("Print the facts behind every memory layout the type analysis "
             "cannot resolve (to stderr)"));

namespace ad {
namespace {

/// Past this many steps one query gives up and reports what it has
/// (MemoryTypes::Truncated).
constexpr unsigned MaxSteps = 8192;
/// How many places one pointer may stand at before they merge.
constexpr unsigned MaxPositions = 4;

uint64_t gcdPeriod(uint64_t A, uint64_t B) { return std::gcd(A, B); }

int64_t saturatingAdd(int64_t A, int64_t B) {
  if (A == INT64_MIN || A == INT64_MAX)
    return A;
  return A + B;
}

//===----------------------------------------------------------------------===//
// Facts from IR types and TBAA
//===----------------------------------------------------------------------===//

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
        F.Period = gcdPeriod(F.Period, Period), F.Lo = INT64_MIN,
        F.Hi = INT64_MAX;
      Out.add(F);
    }
  }
}

/// The scalar type a clang TBAA type node names, and its size: "double",
/// "float", "int", "any pointer", "p1 float", ... nullptr for a struct
/// node, "omnipotent char" (which may alias anything) and names we do not
/// know.
struct TBAAScalar {
  Type *Ty = nullptr;
  bool IsChar = false;
};

TBAAScalar scalarOfTBAANode(LLVMContext &C, const DataLayout &DL,
                            const MDNode *Node) {
  TBAAScalar S;
  if (!Node || Node->getNumOperands() < 1)
    return S;
  auto *Name = dyn_cast<MDString>(Node->getOperand(0));
  if (!Name)
    return S;
  StringRef N = Name->getString();
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
/// "p2 ..." -> a pointer.
Type *pointeeOfPointerTag(LLVMContext &C, const MDNode *AccessTy) {
  auto *Name = AccessTy && AccessTy->getNumOperands()
                   ? dyn_cast<MDString>(AccessTy->getOperand(0))
                   : nullptr;
  if (!Name)
    return nullptr;
  StringRef N = Name->getString();
  if (N.size() < 3 || N[0] != 'p' || !isDigit(N[1]))
    return nullptr;
  unsigned Depth = 0;
  StringRef Rest = N.drop_front(1);
  if (Rest.consumeInteger(10, Depth) || !Rest.consume_front(" "))
    return nullptr;
  if (Depth > 1)
    return PointerType::getUnqual(C);
  return StringSwitch<Type *>(Rest)
      .Case("double", Type::getDoubleTy(C))
      .Case("float", Type::getFloatTy(C))
      .Case("int", Type::getInt32Ty(C))
      .Case("long", Type::getInt64Ty(C))
      .Case("long long", Type::getInt64Ty(C))
      .Case("short", Type::getInt16Ty(C))
      .Default(nullptr);
}

/// Adds the fields a TBAA struct type node lists, at \p Base. clang lists
/// an array member as "omnipotent char", which says nothing of its bytes,
/// so only scalar fields are typed; the gap between a scalar field and the
/// next field is padding.
void flattenTBAAStruct(LLVMContext &C, const DataLayout &DL,
                       const MDNode *Node, int64_t Base, uint64_t Period,
                       MemoryTypes &Out, unsigned Depth = 0) {
  if (!Node || Depth > 8)
    return;
  TBAAScalar S = scalarOfTBAANode(C, DL, Node);
  if (S.Ty) {
    flattenType(DL, S.Ty, Base, Period, Out);
    return;
  }
  if (S.IsChar || Node->getNumOperands() < 3 ||
      Node->getNumOperands() % 2 == 0)
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

//===----------------------------------------------------------------------===//
// The exploration
//===----------------------------------------------------------------------===//

/// Where a pointer stands relative to the pointer asked about: at Delta
/// plus some multiple of Period; its facts hold over [Lo, Hi) (a copy's
/// bytes). Descended: reached by following an argument into a callee, whose
/// other callers pass other memory and must not be mixed in; Via is the
/// call it was followed through, whose other arguments are the callee's
/// other parameters in this context (`copy(&t, m)`: what copy does to m
/// through its first parameter is done to t).
struct Position {
  int64_t Delta = 0;
  uint64_t Period = 0;
  int64_t Lo = INT64_MIN, Hi = INT64_MAX;
  bool Descended = false;
  const CallBase *Via = nullptr;
};

/// A number every value of the integer \p V is a multiple of: -O2 indexes
/// bytes, `gep i8, p, (shl i, 3)`, so the GEP's own scale (1) hides the
/// element size that the index arithmetic shows. A phi already being
/// looked at counts as 0 (any multiple): by induction around a loop, a
/// counter that starts at a multiple of m and steps by multiples of m
/// stays one.
/// What users of \p V prove about it: an exact division (a pointer
/// difference that std::vector turns into an element count with
/// `ashr exact d, 3`) makes it a multiple of the divisor.
uint64_t multipleByUsers(const Value *V) {
  uint64_t M = 1;
  for (const User *U : V->users()) {
    auto *BO = dyn_cast<PossiblyExactOperator>(U);
    if (!BO || !BO->isExact() || BO->getOperand(0) != V)
      continue;
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!C || C->getValue().getActiveBits() > 32)
      continue;
    uint64_t K = C->getZExtValue();
    unsigned Op = cast<Operator>(BO)->getOpcode();
    if (Op == Instruction::AShr || Op == Instruction::LShr)
      M = std::lcm(M, uint64_t(1) << std::min<uint64_t>(K, 32));
    else if (K) // sdiv/udiv exact
      M = std::lcm(M, K);
  }
  return M;
}

/// A number every value of the integer \p V is a multiple of: -O2 indexes
/// bytes, `gep i8, p, (shl i, 3)`, so the GEP's own scale (1) hides the
/// element size that the index arithmetic shows. A phi already being
/// looked at counts as 0 (any multiple): by induction around a loop, a
/// counter that starts at a multiple of m and steps by multiples of m
/// stays one.
uint64_t multipleOf(const Value *V, const DataLayout &DL,
                    SmallPtrSetImpl<const PHINode *> &Open, unsigned Depth) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getValue().abs().getLimitedValue();
  if (!V->getType()->isIntegerTy())
    return 1;
  auto Const = [](const Value *X) -> uint64_t {
    auto *C = dyn_cast<ConstantInt>(X);
    return C ? C->getValue().abs().getLimitedValue() : 0;
  };
  auto Of = [&](const Value *X) { return multipleOf(X, DL, Open, Depth + 1); };
  uint64_t Structural = 1;
  if (auto *I = dyn_cast<Instruction>(V); I && Depth < 8) {
    switch (I->getOpcode()) {
    case Instruction::Mul:
      if (uint64_t C = Const(I->getOperand(1)))
        Structural = C * Of(I->getOperand(0));
      break;
    case Instruction::Shl:
      if (uint64_t C = Const(I->getOperand(1)); C < 32)
        Structural = (uint64_t(1) << C) * Of(I->getOperand(0));
      break;
    case Instruction::Add:
    case Instruction::Sub:
      Structural = std::gcd(Of(I->getOperand(0)), Of(I->getOperand(1)));
      break;
    case Instruction::SExt:
    case Instruction::ZExt:
      Structural = Of(I->getOperand(0));
      break;
    case Instruction::PHI: {
      auto *Phi = cast<PHINode>(I);
      if (!Open.insert(Phi).second)
        return 0;
      uint64_t G = 0;
      for (const Value *In : Phi->incoming_values())
        G = std::gcd(G, Of(In));
      Open.erase(Phi);
      Structural = G;
      break;
    }
    case Instruction::Select:
      Structural = std::gcd(Of(I->getOperand(1)), Of(I->getOperand(2)));
      break;
    default:
      break;
    }
  }
  if (Structural == 0) // Only the loop itself: no constraint yet.
    return 0;
  KnownBits Known = computeKnownBits(V, SimplifyQuery(DL));
  unsigned Zeros = std::min(Known.countMinTrailingZeros(), 32u);
  uint64_t M = std::lcm(Structural, uint64_t(1) << Zeros);
  return std::lcm(M, multipleByUsers(V));
}

uint64_t multipleOf(const Value *V, const DataLayout &DL) {
  SmallPtrSet<const PHINode *, 8> Open;
  uint64_t M = multipleOf(V, DL, Open, 0);
  return M ? M : 1;
}

/// The few values \p V can take, when it is built from constants by
/// selects, phis, zero- or sign-extended booleans and arithmetic: -O2 picks
/// a field by `gep i8, x, (zext c) << 3 + 16` (a tree node's left or right
/// child). At most 4 values; false when V may take others.
bool fewValues(const Value *V, SmallVectorImpl<int64_t> &Out,
               unsigned Depth = 0) {
  constexpr size_t MaxValues = 4;
  Out.clear();
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    if (C->getBitWidth() > 64)
      return false;
    Out.push_back(C->getSExtValue());
    return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6)
    return false;
  SmallVector<int64_t, 4> A, B;
  auto Combine = [&](auto Op) {
    for (int64_t X : A)
      for (int64_t Y : B) {
        int64_t Z = Op(X, Y);
        if (!is_contained(Out, Z))
          Out.push_back(Z);
      }
    return Out.size() <= MaxValues;
  };
  switch (I->getOpcode()) {
  case Instruction::ZExt:
  case Instruction::SExt:
    if (I->getOperand(0)->getType()->isIntegerTy(1)) {
      Out.push_back(0);
      Out.push_back(I->getOpcode() == Instruction::ZExt ? 1 : -1);
      return true;
    }
    return fewValues(I->getOperand(0), Out, Depth + 1);
  case Instruction::Select:
    if (!fewValues(I->getOperand(1), A, Depth + 1) ||
        !fewValues(I->getOperand(2), B, Depth + 1))
      return false;
    for (int64_t X : concat<int64_t>(A, B))
      if (!is_contained(Out, X))
        Out.push_back(X);
    return Out.size() <= MaxValues;
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Shl:
  case Instruction::Or:
    if (!fewValues(I->getOperand(0), A, Depth + 1) ||
        !fewValues(I->getOperand(1), B, Depth + 1))
      return false;
    switch (I->getOpcode()) {
    case Instruction::Add:
      return Combine([](int64_t X, int64_t Y) { return X + Y; });
    case Instruction::Sub:
      return Combine([](int64_t X, int64_t Y) { return X - Y; });
    case Instruction::Mul:
      return Combine([](int64_t X, int64_t Y) { return X * Y; });
    case Instruction::Shl:
      return all_of(B, [](int64_t Y) { return Y >= 0 && Y < 32; }) &&
             Combine([](int64_t X, int64_t Y) { return X << Y; });
    default: // or: only when the bits are disjoint, as for an add
      return cast<PossiblyDisjointInst>(I)->isDisjoint() &&
             Combine([](int64_t X, int64_t Y) { return X | Y; });
    }
  default:
    return false;
  }
}

/// The offsets a GEP adds to its base when its variable indices take only
/// a few values each (fewValues): Base + one of them, exactly. False when
/// some index may take many values.
bool fewOffsets(const DataLayout &DL, const GEPOperator &GEP,
                SmallVectorImpl<int64_t> &Offsets) {
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  SmallMapVector<Value *, APInt, 4> Vars;
  APInt C(Bits, 0);
  if (!GEP.collectOffset(DL, Bits, Vars, C) || Vars.empty() ||
      Vars.size() > 2)
    return false;
  Offsets.assign(1, C.getSExtValue());
  for (auto &[V, Scale] : Vars) {
    SmallVector<int64_t, 4> Values, Next;
    if (!fewValues(V, Values))
      return false;
    for (int64_t O : Offsets)
      for (int64_t X : Values)
        Next.push_back(O + X * Scale.getSExtValue());
    if (Next.size() > 4)
      return false;
    Offsets = Next;
  }
  return true;
}

/// The constant part of a GEP's offset and the gcd of the scales of its
/// variable indices (0 if none): the GEP is Base + Const + k * Scale.
bool decomposeGEP(const DataLayout &DL, const GEPOperator &GEP, int64_t &Const,
                  uint64_t &Scale) {
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  SmallMapVector<Value *, APInt, 4> Vars;
  APInt C(Bits, 0);
  if (!GEP.collectOffset(DL, Bits, Vars, C))
    return false;
  Const = C.getSExtValue();
  Scale = 0;
  for (auto &[V, S] : Vars)
    Scale = gcdPeriod(Scale, S.abs().getZExtValue() * multipleOf(V, DL));
  return true;
}

/// The integer copies \p V takes part in: a load from V whose value is
/// stored (so the bytes at V reach the store's address), or a store into V
/// of a value loaded elsewhere.
const Value *copyPartner(const User *U, const Value *V, uint64_t &Size,
                         const DataLayout &DL) {
  if (auto *LI = dyn_cast<LoadInst>(U)) {
    if (LI->getPointerOperand() != V || !LI->getType()->isIntOrIntVectorTy() ||
        DL.getTypeStoreSize(LI->getType()).isScalable())
      return nullptr;
    for (const User *LU : LI->users())
      if (auto *SI = dyn_cast<StoreInst>(LU); SI && SI->getValueOperand() == LI) {
        Size = DL.getTypeStoreSize(LI->getType());
        return SI->getPointerOperand();
      }
    return nullptr;
  }
  if (auto *SI = dyn_cast<StoreInst>(U)) {
    auto *LI = dyn_cast<LoadInst>(SI->getValueOperand());
    if (SI->getPointerOperand() != V || !LI ||
        !LI->getType()->isIntOrIntVectorTy() ||
        DL.getTypeStoreSize(LI->getType()).isScalable())
      return nullptr;
    Size = DL.getTypeStoreSize(LI->getType());
    return LI->getPointerOperand();
  }
  return nullptr;
}

/// Strips the GEPs two sides of an integer copy share (the same indices
/// into the same type: `d[i] = s[i]` in a byte loop) so that the copy
/// relates the two bases at every index rather than one byte at one
/// unknown offset.
std::pair<const Value *, const Value *> commonCopyBases(const Value *A,
                                                        const Value *B) {
  const Value *BaseA = A, *BaseB = B;
  bool Variable = false;
  for (int K = 0; K < 4; ++K) {
    auto *GA = dyn_cast<GEPOperator>(BaseA), *GB = dyn_cast<GEPOperator>(BaseB);
    if (!GA || !GB || GA->getSourceElementType() != GB->getSourceElementType() ||
        GA->getNumIndices() != GB->getNumIndices() ||
        !std::equal(GA->idx_begin(), GA->idx_end(), GB->idx_begin()))
      break;
    Variable |= !GA->hasAllConstantIndices();
    BaseA = GA->getPointerOperand();
    BaseB = GB->getPointerOperand();
  }
  // Only a copy at a run-time index relates the bases at every index; at
  // constant offsets the copy relates its own bytes, which the copy's two
  // pointers say exactly.
  if (!Variable)
    return {A, B};
  return {BaseA, BaseB};
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

/// A local variable holding a pointer at -O0 (a parameter's alloca, say):
/// an alloca only loaded from and stored to, so what its loads give is
/// what its stores put there.
bool isPlainSlot(const Value *V) {
  auto *AI = dyn_cast<AllocaInst>(V);
  if (!AI || !AI->getAllocatedType()->isPointerTy())
    return false;
  for (const Use &U : AI->uses()) {
    const User *Usr = U.getUser();
    if (isa<LoadInst>(Usr))
      continue;
    if (auto *SI = dyn_cast<StoreInst>(Usr); SI && U.getOperandNo() == 1)
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(Usr); II && II->isLifetimeStartOrEnd())
      continue;
    if (isa<DbgInfoIntrinsic>(Usr))
      continue;
    return false;
  }
  return true;
}

class Explorer {
public:
  Explorer(const DataLayout &DL, const ArgumentTypes *Callers,
           bool Explain = false, bool FollowFields = false)
      : DL(DL), Callers(Callers), Explain(Explain),
        FollowFields(FollowFields) {}

  MemoryTypes run(const Value *P) {
    if (auto *I = dyn_cast<Instruction>(P))
      RootFunction = I->getFunction();
    else if (auto *A = dyn_cast<Argument>(P))
      RootFunction = A->getParent();
    visit(P, Position());
    unsigned Steps = 0;
    while (!Work.empty() && ++Steps < MaxSteps) {
      auto [V, K] = Work.pop_back_val();
      expand(V, Seen[V][K]);
    }
    MemoryTypes Out;
    Out.Truncated = !Work.empty();
    for (auto &[V, Positions] : Seen)
      for (const Position &Pos : Positions)
        collectFacts(V, Pos, Out);
    Out.deduplicate();
    if (Explain)
      for (auto &[V, Positions] : Seen)
        for (const Position &Pos : Positions) {
          MemoryTypes One;
          collectFacts(V, Pos, One);
          errs() << "  node d=" << Pos.Delta << " p=" << Pos.Period << " ";
          if (auto *I = dyn_cast<Instruction>(V))
            errs() << *I << " in " << I->getFunction()->getName();
          else
            V->printAsOperand(errs());
          errs() << ":";
          printFacts(errs(), One);
          errs() << "\n";
        }
    return Out;
  }

private:
  /// \p Outer holds every place \p Inner stands for (and is no more
  /// restricted in where its facts hold or where it may go).
  static bool subsumes(const Position &Outer, const Position &Inner) {
    uint64_t Diff = Outer.Delta > Inner.Delta ? Outer.Delta - Inner.Delta
                                              : Inner.Delta - Outer.Delta;
    bool Places = Outer.Period ? Inner.Period % Outer.Period == 0 &&
                                     Diff % Outer.Period == 0
                               : Inner.Period == 0 && Diff == 0;
    return Places && Outer.Lo <= Inner.Lo && Outer.Hi >= Inner.Hi &&
           (!Outer.Descended ||
            (Inner.Descended && (!Outer.Via || Outer.Via == Inner.Via)));
  }

  /// Records that \p V stands at \p Pos. A pointer may stand at a few
  /// places at once (reached exactly from one side, through a byte loop at
  /// an unknown offset from another): each keeps its own facts, so an
  /// imprecise path cannot blur a precise one. Past a few, they merge (two
  /// offsets make the memory periodic in their difference: a pointer
  /// bumped around a loop).
  void visit(const Value *V, Position Pos) {
    // Only pointers that name memory: not null, undef or function addresses
    // (whose uses span the module and say nothing).
    if (isa<ConstantData>(V) || isa<Function>(V) || isa<BlockAddress>(V) ||
        !V->getType()->isPtrOrPtrVectorTy())
      return;
    SmallVector<Position, 2> &Positions = Seen[V];
    for (const Position &Old : Positions)
      if (subsumes(Old, Pos))
        return;
    if (Positions.size() < MaxPositions) {
      Positions.push_back(Pos);
      Work.push_back({V, unsigned(Positions.size() - 1)});
      return;
    }
    Position &Old = Positions.back();
    uint64_t Diff = Old.Delta > Pos.Delta ? Old.Delta - Pos.Delta
                                          : Pos.Delta - Old.Delta;
    Old.Period = gcdPeriod(gcdPeriod(Old.Period, Pos.Period), Diff);
    Old.Lo = std::min(Old.Lo, Pos.Lo);
    Old.Hi = std::max(Old.Hi, Pos.Hi);
    if (Old.Via != Pos.Via || !Pos.Descended)
      Old.Via = nullptr;
    Old.Descended = Old.Descended && Pos.Descended;
    Work.push_back({V, unsigned(Positions.size() - 1)});
  }

  static Position shifted(Position P, int64_t By, uint64_t Scale = 0) {
    P.Delta += By;
    P.Period = gcdPeriod(P.Period, Scale);
    return P;
  }

  /// Across a copy of \p Len bytes (none: unknown) whose two sides are
  /// \p From at \p Pos and the partner: the partner's facts hold over the
  /// copied bytes only. At a periodic position (a copy of element i of an
  /// array) the window is the copied bytes of the element at Delta alone:
  /// what the partner says of the other elements is dropped rather than
  /// repeated (a value taped into the record of a tape, beside doubles,
  /// must not type every element of the array it came from).
  static Position acrossCopy(Position Pos, int64_t By,
                             std::optional<uint64_t> Len) {
    Position P = shifted(Pos, By);
    if (Len) {
      P.Lo = std::max(P.Lo, P.Delta);
      P.Hi = std::min(P.Hi, saturatingAdd(P.Delta, *Len));
    }
    return P;
  }

  void expand(const Value *V, Position Pos) {
    // Where V comes from.
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      int64_t Const;
      uint64_t Scale;
      SmallVector<int64_t, 4> Few;
      if (fewOffsets(DL, *GEP, Few)) {
        for (int64_t Off : Few)
          visit(GEP->getPointerOperand(), shifted(Pos, -Off));
      } else if (decomposeGEP(DL, *GEP, Const, Scale)) {
        visit(GEP->getPointerOperand(), shifted(Pos, -Const, Scale));
      }
    } else if (auto *Op = dyn_cast<Operator>(V);
               Op && (Op->getOpcode() == Instruction::BitCast ||
                      Op->getOpcode() == Instruction::AddrSpaceCast)) {
      visit(Op->getOperand(0), Pos);
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (const Value *In : Phi->incoming_values())
        visit(In, Pos);
    } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      visit(Sel->getTrueValue(), Pos);
      visit(Sel->getFalseValue(), Pos);
    } else if (auto *LI = dyn_cast<LoadInst>(V);
               LI && isPlainSlot(LI->getPointerOperand())) {
      for (const User *U : LI->getPointerOperand()->users())
        if (auto *SI = dyn_cast<StoreInst>(U))
          visit(SI->getValueOperand(), Pos);
    } else if (auto *LI = dyn_cast<LoadInst>(V)) {
      for (const Value *Alias : fieldAliases(LI->getPointerOperand()))
        visit(Alias, Pos);
    } else if (auto *A = dyn_cast<Argument>(V)) {
      if (!Pos.Descended && Callers) {
        for (const Value *Actual : Callers->actualsFor(*A))
          visit(Actual, Pos);
      } else if (Pos.Via && Pos.Via->getCalledFunction() == A->getParent() &&
                 A->getArgNo() < Pos.Via->arg_size()) {
        // Back out through the call we came in by: the caller is the root's
        // function (the context we started in) or one we know no more of.
        Position Out = Pos;
        Out.Via = nullptr;
        Out.Descended = Pos.Via->getFunction() != RootFunction;
        visit(Pos.Via->getArgOperand(A->getArgNo()), Out);
      }
    } else if (auto *Call = dyn_cast<CallBase>(V)) {
      // realloc keeps the old contents.
      if (classifyCallee(*Call).Kind == CalleeKind::Realloc)
        visit(Call->getArgOperand(0), Pos);
      // A pointer returned by a function with a body: what it returns.
      else if (const Function *F = Call->getCalledFunction();
          F && !F->isDeclaration() && !F->isVarArg()) {
        Position In = Pos;
        In.Descended = true;
        In.Via = Call;
        for (const BasicBlock &BB : *F)
          if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
            if (Ret->getReturnValue())
              visit(Ret->getReturnValue(), In);
      }
    }
    // Where V goes.
    for (const Use &U : V->uses())
      expandUse(U, Pos);
  }

  void expandUse(const Use &U, Position Pos) {
    const User *Usr = U.getUser();
    const Value *V = U.get();
    if (auto *GEP = dyn_cast<GEPOperator>(Usr)) {
      int64_t Const;
      uint64_t Scale;
      SmallVector<int64_t, 4> Few;
      if (GEP->getPointerOperand() != V)
        return;
      if (fewOffsets(DL, *GEP, Few)) {
        for (int64_t Off : Few)
          visit(GEP, shifted(Pos, Off));
      } else if (decomposeGEP(DL, *GEP, Const, Scale)) {
        visit(GEP, shifted(Pos, Const, Scale));
      }
      return;
    }
    if (auto *Op = dyn_cast<Operator>(Usr);
        Op && (Op->getOpcode() == Instruction::BitCast ||
               Op->getOpcode() == Instruction::AddrSpaceCast)) {
      visit(Usr, Pos);
      return;
    }
    if (isa<PHINode>(Usr) ||
        (isa<SelectInst>(Usr) && U.getOperandNo() != 0)) {
      visit(Usr, Pos);
      return;
    }
    if (auto *SI = dyn_cast<StoreInst>(Usr); SI && SI->getValueOperand() == V) {
      if (isPlainSlot(SI->getPointerOperand())) {
        for (const User *SU : SI->getPointerOperand()->users())
          if (isa<LoadInst>(SU))
            visit(SU, Pos);
      } else {
        for (const Value *Alias : fieldAliases(SI->getPointerOperand()))
          visit(Alias, Pos);
      }
      return;
    }
    uint64_t Size = 0;
    if (const Value *Partner = copyPartner(Usr, V, Size, DL)) {
      auto [Mine, Theirs] = commonCopyBases(V, Partner);
      if (Mine == V) {
        visit(Partner, acrossCopy(Pos, 0, Size));
      } else if (auto It = Seen.find(Mine); It != Seen.end()) {
        // The other base stands where V's base stands, over the whole copy.
        for (const Position &Base : SmallVector<Position, 2>(It->second))
          visit(Theirs, acrossCopy(Base, 0, std::nullopt));
      }
      return;
    }
    auto *Call = dyn_cast<CallBase>(Usr);
    if (!Call || !Call->isArgOperand(&U))
      return;
    unsigned ArgNo = Call->getArgOperandNo(&U);
    if (auto *MT = dyn_cast<MemTransferInst>(Call)) {
      const Value *Partner = ArgNo == 0 ? MT->getSource() : MT->getDest();
      std::optional<uint64_t> Len;
      if (auto *C = dyn_cast<ConstantInt>(MT->getLength()))
        Len = C->getZExtValue();
      if (ArgNo <= 1)
        visit(Partner, acrossCopy(Pos, 0, Len));
      return;
    }
    const Function *F = Call->getCalledFunction();
    if (!F)
      return;
    CalleeKind Kind = classifyCallee(*Call).Kind;
    if (Kind == CalleeKind::Realloc && ArgNo == 0) {
      visit(Call, Pos);
      return;
    }
    if (Kind == CalleeKind::MemCopy && ArgNo <= 1 && Call->arg_size() == 3) {
      std::optional<uint64_t> Len;
      if (auto *C = dyn_cast<ConstantInt>(Call->getArgOperand(2)))
        Len = C->getZExtValue();
      visit(Call->getArgOperand(1 - ArgNo), acrossCopy(Pos, 0, Len));
      return;
    }
    if (F->isDeclaration() || ArgNo >= F->arg_size())
      return;
    Position In = Pos;
    In.Descended = true;
    In.Via = Call;
    visit(F->getArg(ArgNo), In);
  }

  /// The pointers stored into, or loaded from, the field \p Addr points to
  /// (any pointer the exploration relates to Addr at offset 0): they point
  /// where a pointer loaded from Addr does. This follows pointers through
  /// memory one level deep, as -O0 keeps them in struct fields (a C++
  /// iterator's `int *`, a `std::tuple<const int &>`), and answers per
  /// field once per query.
  ArrayRef<const Value *> fieldAliases(const Value *Addr) {
    if (!FollowFields)
      return {};
    auto [It, New] = FieldAliases.try_emplace(Addr);
    if (!New)
      return It->second;
    Explorer Field(DL, Callers);
    Field.RootFunction = RootFunction;
    Field.visit(Addr, Position());
    for (unsigned Steps = 0; !Field.Work.empty() && Steps < MaxSteps / 4;
         ++Steps) {
      auto [V, K] = Field.Work.pop_back_val();
      Field.expand(V, Field.Seen[V][K]);
    }
    SmallVector<const Value *, 8> Found;
    for (auto &[V, Positions] : Field.Seen) {
      bool AtField = any_of(Positions, [](const Position &P) {
        return P.Period ? P.Delta % int64_t(P.Period) == 0 : P.Delta == 0;
      });
      if (!AtField)
        continue;
      for (const User *U : V->users()) {
        if (auto *LI = dyn_cast<LoadInst>(U);
            LI && LI->getType()->isPointerTy())
          Found.push_back(LI);
        if (auto *SI = dyn_cast<StoreInst>(U);
            SI && SI->getPointerOperand() == V &&
            SI->getValueOperand()->getType()->isPointerTy())
          Found.push_back(SI->getValueOperand());
      }
      if (Found.size() > 256)
        break;
    }
    // The map may have grown while exploring: look the entry up again.
    return FieldAliases[Addr] = std::move(Found);
  }

  /// What \p V itself says about the bytes at its position.
  void collectFacts(const Value *V, const Position &Pos, MemoryTypes &Out) {
    MemoryTypes Local;
    collectLocalFacts(V, Local);
    for (TypedBytes F : Local.facts()) {
      F.Offset += Pos.Delta;
      F.Lo = saturatingAdd(F.Lo, Pos.Delta);
      F.Hi = saturatingAdd(F.Hi, Pos.Delta);
      F.Lo = std::max(F.Lo, Pos.Lo);
      F.Hi = std::min(F.Hi, Pos.Hi);
      // At a periodic position the facts repeat; a window (from a copy, or
      // an array's bounds) holds where it was found, as placed at Delta.
      if (Pos.Period)
        F.Period = gcdPeriod(F.Period, Pos.Period);
      if (F.Lo < F.Hi)
        Out.add(F);
    }
  }

  void collectLocalFacts(const Value *V, MemoryTypes &Out) {
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
      gepSourceFacts(*GEP, Out);
    } else if (auto *LI = dyn_cast<LoadInst>(V)) {
      // A pointer loaded with a pointer tag: "p1 double" points to doubles.
      if (Type *T = pointeeOfPointerTag(
              C, accessTypeOfTag(LI->getMetadata(LLVMContext::MD_tbaa))))
        flattenType(DL, T, 0, DL.getTypeStoreSize(T), Out);
    }
    for (const Use &U : V->uses())
      useFacts(U, Out);
  }

  /// A typed GEP `gep S, p, i, 1` says p points to an array of S (in C, an
  /// `S *` may point into one): S repeats every sizeof(S) bytes from p, and
  /// the GEP lands inside one of them, Inner bytes from its start.
  void gepSourceFacts(const GEPOperator &GEP, MemoryTypes &Out) {
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

  void useFacts(const Use &U, MemoryTypes &Out) {
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
      transferFacts(*MT, Out);
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

  /// clang describes a struct copy in !tbaa.struct: (offset, size, tag) per
  /// field, and bytes no field covers are padding (LangRef: "need not be
  /// preserved"). An array member is listed with a char tag, which says
  /// nothing of its elements. A copy loop turned into memcpy keeps its
  /// element's access tag instead.
  void transferFacts(const MemTransferInst &MT, MemoryTypes &Out) {
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

  const DataLayout &DL;
  const ArgumentTypes *Callers;
  /// Print every pointer reached, where, and what it says (to stderr).
  bool Explain;
  /// Follow pointers through the fields that hold them (fieldAliases); the
  /// exploration of a field does not, so that it stays one level deep.
  bool FollowFields;
  DenseMap<const Value *, SmallVector<const Value *, 8>> FieldAliases;
  const Function *RootFunction = nullptr;
  DenseMap<const Value *, SmallVector<Position, 2>> Seen;
  SmallVector<std::pair<const Value *, unsigned>, 32> Work;
};

//===----------------------------------------------------------------------===//
// Resolving the facts over a window
//===----------------------------------------------------------------------===//

/// One fact's occurrence inside the window.
struct Instance {
  uint64_t Start, Size;
  ByteKind Kind;
  Type *FloatTy;
  uint64_t Specificity; ///< Fixed facts first, then longer periods.
  bool Whole;           ///< Not cut by the window or the fact's range.
};

struct Resolved {
  SmallVector<Instance, 16> Placed; ///< What each byte holds, no overlaps.
  bool Conflict = false;
  bool AllCovered = false;
  /// A float or pointer that the window cuts (part of a double copied).
  bool Cut = false;
};

/// The occurrences of the facts in [0, Width). With \p Modulo the window
/// is one element of an array, and occurrences are taken modulo it.
SmallVector<Instance, 32> occurrences(ArrayRef<TypedBytes> Facts,
                                      uint64_t Width, bool Modulo) {
  SmallVector<Instance, 32> All;
  constexpr size_t MaxInstances = 1 << 16;
  for (const TypedBytes &F : Facts) {
    if (F.Size == 0)
      continue;
    uint64_t Spec = F.Period ? F.Period : UINT64_MAX;
    auto AddAt = [&](int64_t Start) {
      int64_t End = Start + int64_t(F.Size);
      int64_t Lo = F.Lo, Hi = F.Hi;
      if (!Modulo) {
        Lo = std::max<int64_t>(Lo, 0);
        Hi = std::min<int64_t>(Hi, Width);
      }
      int64_t S = std::max(Start, Lo), E = std::min(End, Hi);
      if (S >= E)
        return;
      int64_t W = Width;
      uint64_t At = Modulo ? uint64_t(((S % W) + W) % W) : uint64_t(S);
      bool Whole = S == Start && E == End && At + (E - S) <= Width;
      All.push_back({At, uint64_t(E - S), F.Kind, F.FloatTy, Spec, Whole});
    };
    if (!F.Period) {
      AddAt(F.Offset);
      continue;
    }
    // Every occurrence that meets the window, from the last one that
    // starts at or before 0.
    int64_t P = F.Period;
    int64_t First = F.Offset % P;
    if (First > 0)
      First -= P;
    for (int64_t S = First; S < int64_t(Width) && All.size() < MaxInstances;
         S += P)
      AddAt(S);
  }
  return All;
}

/// Places the occurrences, most specific first. A less specific one that
/// meets a placed one is dropped (a struct's int field beats the doubles of
/// an unbounded array view of it; a double "every byte", seen from a
/// pointer at an unknown offset, beats nothing it meets). Between equally
/// specific ones, a float or a pointer beats an integer (a union, memory
/// reused) and two different floats or a float and a pointer conflict.
Resolved resolve(ArrayRef<TypedBytes> Facts, uint64_t Width, bool Modulo) {
  SmallVector<Instance, 32> All = occurrences(Facts, Width, Modulo);
  llvm::stable_sort(All, [](const Instance &A, const Instance &B) {
    if (A.Specificity != B.Specificity)
      return A.Specificity > B.Specificity;
    return A.Kind != ByteKind::Integer && B.Kind == ByteKind::Integer;
  });
  Resolved R;
  SmallVector<bool, 64> Covered(Width, false);
  for (const Instance &I : All) {
    for (uint64_t B = I.Start; B < I.Start + I.Size && B < Width; ++B)
      Covered[B] = true;
    bool Skip = false;
    for (const Instance &P : R.Placed) {
      bool Overlaps = I.Start < P.Start + P.Size && P.Start < I.Start + I.Size;
      if (!Overlaps)
        continue;
      Skip = true;
      bool Same = I.Start == P.Start && I.Size == P.Size && I.Kind == P.Kind &&
                  I.FloatTy == P.FloatTy;
      if (!Same && P.Specificity == I.Specificity &&
          I.Kind != ByteKind::Integer)
        R.Conflict = true;
    }
    if (Skip)
      continue;
    if (!I.Whole && I.Kind != ByteKind::Integer)
      R.Cut = true;
    else
      R.Placed.push_back(I);
  }
  R.AllCovered = llvm::all_of(Covered, [](bool B) { return B; });
  llvm::sort(R.Placed, [](const Instance &A, const Instance &B) {
    return A.Start < B.Start;
  });
  return R;
}

MemoryLayout toLayout(const Resolved &R, uint64_t Stride) {
  MemoryLayout L;
  L.Stride = Stride;
  for (const Instance &I : R.Placed) {
    if (I.Kind == ByteKind::Float)
      L.Floats.push_back({I.Start, I.FloatTy});
    else if (I.Kind == ByteKind::Pointer) {
      L.HasPointers = true;
      L.Others.push_back({I.Start, nullptr});
    }
  }
  return L;
}

/// The shortest period (dividing \p L's stride) that \p L repeats with.
MemoryLayout compress(MemoryLayout L) {
  for (uint64_t P = 1; P < L.Stride; ++P) {
    if (L.Stride % P)
      continue;
    auto Repeats = [&](ArrayRef<FloatField> Fs) {
      for (const FloatField &F : Fs) {
        uint64_t Next = F.Offset + P;
        if (Next >= L.Stride)
          continue;
        if (!llvm::any_of(Fs, [&](const FloatField &G) {
              return G.Offset == Next && G.Ty == F.Ty;
            }))
          return false;
      }
      return true;
    };
    if (!Repeats(L.Floats) || !Repeats(L.Others))
      continue;
    // And nothing starts in the first period that is absent later.
    MemoryLayout Short;
    Short.Stride = P;
    Short.HasPointers = L.HasPointers;
    for (const FloatField &F : L.Floats)
      if (F.Offset < P)
        Short.Floats.push_back(F);
    for (const FloatField &F : L.Others)
      if (F.Offset < P)
        Short.Others.push_back(F);
    if (Short.Floats.size() * (L.Stride / P) == L.Floats.size() &&
        Short.Others.size() * (L.Stride / P) == L.Others.size())
      return Short;
  }
  return L;
}

} // namespace

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

void MemoryTypes::deduplicate() {
  auto Key = [](const TypedBytes &F) {
    return std::make_tuple(F.Offset, F.Size, F.Period, F.Kind, F.FloatTy, F.Lo,
                           F.Hi);
  };
  llvm::sort(Facts, [&](const TypedBytes &A, const TypedBytes &B) {
    return Key(A) < Key(B);
  });
  Facts.erase(std::unique(Facts.begin(), Facts.end(),
                          [&](const TypedBytes &A, const TypedBytes &B) {
                            return Key(A) == Key(B);
                          }),
              Facts.end());
}

std::optional<MemoryLayout>
MemoryTypes::layout(std::optional<uint64_t> Len) const {
  if (Len && *Len <= (1u << 16)) {
    if (*Len == 0)
      return MemoryLayout{};
    Resolved R = resolve(Facts, *Len, /*Modulo=*/false);
    if (R.Conflict || R.Cut || !R.AllCovered)
      return std::nullopt;
    return compress(toLayout(R, *Len));
  }
  // A run-time length: the memory is an array of some element, whose size
  // is the longest period among the facts (the others divide it), or, with
  // no periodic fact, the extent of the fixed facts from 0.
  // (A fact that repeats closer than its own size, a double "every byte"
  // seen from a pointer at an unknown offset, says nothing of the element.)
  uint64_t Element = 0;
  for (const TypedBytes &F : Facts)
    if (F.Period && F.Period >= F.Size)
      Element = Element ? std::lcm(Element, F.Period) : F.Period;
  if (!Element)
    for (const TypedBytes &F : Facts)
      if (F.Offset >= 0)
        Element = std::max<uint64_t>(Element, F.Offset + F.Size);
  if (!Element || Element > (1u << 12))
    return std::nullopt;
  if (Len && *Len % Element)
    return std::nullopt;
  Resolved R = resolve(Facts, Element, /*Modulo=*/true);
  if (R.Conflict || R.Cut || !R.AllCovered)
    return std::nullopt;
  return compress(toLayout(R, Element));
}

CopyContent MemoryTypes::contentOf(uint64_t Size, bool Precise) const {
  CopyContent C;
  SmallVector<TypedBytes, 16> Kept;
  for (const TypedBytes &F : Facts)
    if (!Precise || !F.Period || F.Period >= F.Size)
      Kept.push_back(F);
  Resolved R = resolve(Kept, Size, /*Modulo=*/false);
  C.AllKnown = R.AllCovered && !R.Conflict && !R.Cut;
  C.AnyFloat = R.Cut;
  for (const Instance &I : R.Placed) {
    C.AnyFloat |= I.Kind == ByteKind::Float;
    C.AnyPointer |= I.Kind == ByteKind::Pointer;
  }
  if (!R.Conflict && !R.Cut && R.Placed.size() == 1) {
    const Instance &I = R.Placed.front();
    if (I.Kind == ByteKind::Float && I.Start == 0 && I.Size == Size)
      C.WholeFloat = I.FloatTy;
  }
  if (R.Conflict) // Two float types, or a float and a pointer: unknown.
    C.AnyFloat = true;
  return C;
}

MemoryTypes TypeAnalysis::memoryAt(const Value *P, bool FollowFields) const {
  return Explorer(DL, Callers, /*Explain=*/false, FollowFields).run(P);
}

std::optional<CopyContent> contentByTag(const Instruction &Access,
                                        uint64_t Size) {
  const MDNode *Tag = Access.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag)
    return std::nullopt;
  const DataLayout &DL = Access.getDataLayout();
  TBAAScalar S = scalarOfTBAANode(Access.getContext(), DL, accessTypeOfTag(Tag));
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

CopyContent TypeAnalysis::integerCopyContent(const Instruction &Load,
                                             const Instruction *Store,
                                             uint64_t Size,
                                             bool Precise) const {
  // Strict aliasing: an access tagged with a scalar type moves that type.
  // (A node_base pointer of a red-black tree may point to the header or to
  // a node, so the memory behind it is typed every way at once; the tag of
  // the header's count field still says "long".)
  if (std::optional<CopyContent> C = contentByTag(Load, Size))
    return *C;
  if (Store)
    if (std::optional<CopyContent> C = contentByTag(*Store, Size))
      return *C;
  const Value *Src = cast<LoadInst>(Load).getPointerOperand();
  CopyContent C = memoryAt(Src).contentOf(Size, Precise);
  if (C.AllKnown || C.AnyFloat)
    return C;
  // Nothing types some of the bytes: ask again, following pointers through
  // the fields that hold them, and take that answer only if it finds
  // integers there and nothing else. (Following fields merges every object
  // a field may point to, the nodes of a tree with its header: a layout
  // resolved from that is not trusted, but "only integers, everywhere it
  // looked" types a C++ iterator's `int *` at -O0.)
  CopyContent Deeper = memoryAt(Src, /*FollowFields=*/true)
                           .contentOf(Size, Precise);
  bool OnlyIntegers = Deeper.AllKnown && !Deeper.AnyFloat && !Deeper.AnyPointer;
  return OnlyIntegers ? Deeper : C;
}

/// With -ad-explain-types, what a query from \p P that found no layout was
/// given: every pointer reached, at which offset, and what it said.
static void explain(const Instruction &At, const Value *P,
                    const MemoryTypes &M, const DataLayout &DL,
                    const ArgumentTypes *Callers) {
  if (!ExplainTypes)
    return;
  errs() << "ad-explain-types: cannot type " << At.getFunction()->getName()
         << ": " << At << "\n  facts:";
  printFacts(errs(), M);
  errs() << (M.Truncated ? " (truncated)\n" : "\n");
  Explorer(DL, Callers, /*Explain=*/true).run(P);
}

void TypeAnalysis::explainContent(const Instruction &At, const Value *P) const {
  if (ExplainTypes)
    explain(At, P, memoryAt(P), DL, Callers);
}

std::optional<MemoryLayout>
TypeAnalysis::layoutOfCopy(const CallBase &Copy) const {
  // The copy is one of the destination's uses, so exploring from it
  // reaches the source's side (over the copied bytes) and the copy's own
  // metadata.
  std::optional<uint64_t> Len;
  if (auto *C = dyn_cast<ConstantInt>(Copy.getArgOperand(2)))
    Len = C->getZExtValue();
  MemoryTypes M = memoryAt(Copy.getArgOperand(0));
  std::optional<MemoryLayout> L = M.layout(Len);
  if (!L)
    explain(Copy, Copy.getArgOperand(0), M, DL, Callers);
  else if (ExplainTypes) {
    errs() << "ad-explain-types: " << Copy.getFunction()->getName() << ": "
           << Copy << "\n  layout: stride " << L->Stride << ",";
    for (const FloatField &F : L->Floats)
      errs() << " " << *F.Ty << "@" << F.Offset;
    for (const FloatField &F : L->Others)
      errs() << " ptr@" << F.Offset;
    errs() << "\n  facts:";
    printFacts(errs(), M);
    errs() << "\n";
  }
  return L;
}

std::optional<MemoryLayout>
TypeAnalysis::layoutOfReallocation(const CallBase &Realloc) const {
  MemoryTypes M = memoryAt(&Realloc);
  std::optional<MemoryLayout> L = M.layout(std::nullopt);
  if (!L)
    explain(Realloc, &Realloc, M, DL, Callers);
  return L;
}

void printFacts(raw_ostream &OS, const MemoryTypes &M) {
  SmallVector<TypedBytes, 16> Sorted(M.facts().begin(), M.facts().end());
  llvm::stable_sort(Sorted, [](const TypedBytes &A, const TypedBytes &B) {
    return A.Offset < B.Offset;
  });
  for (const TypedBytes &F : Sorted) {
    OS << " ";
    if (F.Kind == ByteKind::Float)
      OS << *F.FloatTy;
    else
      OS << (F.Kind == ByteKind::Pointer ? "ptr" : "int") << F.Size * 8;
    OS << "@" << F.Offset;
    if (F.Period)
      OS << "+" << F.Period << "k";
    if (F.Lo != INT64_MIN || F.Hi != INT64_MAX)
      OS << " in [" << F.Lo << "," << F.Hi << ")";
  }
}

} // namespace ad
