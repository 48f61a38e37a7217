//===- ActivityAnalysis.cpp - Which values carry derivatives
//----------------===//
#include "analysis/ActivityAnalysis.h"
#include "analysis/TypeAnalysis.h"
#include "core/IRHelpers.h"
#include "rules/CallRows.h"
#include "rules/MathRules.h"
#include "support/TimeReport.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ad {

class ActivityAnalysis::Facts final : public CallActivity {
public:
  explicit Facts(ActivityAnalysis &AA) : AA(AA) {}
  bool isVaried(const Value *V) const override { return AA.isVaried(V); }
  bool hasShadow(const Value *V) const override { return AA.hasShadow(V); }
  bool movesPointerBits(const Value *V) const override {
    return AA.movesPointerBits(V);
  }
  bool accessesShadowedGlobals(const CallBase &Call) const override {
    return AA.accessesShadowedGlobals(Call);
  }
  bool exchangesMessages(const CallBase &Call) const override {
    return AA.exchangesMessages(Call);
  }
  bool markVaried(const Value *V) override { return AA.markVaried(V); }
  bool markShadowed(const Value *V) override { return AA.markShadowed(V); }
  bool shadowLocalMemory(const Value *Ptr) override {
    return AA.shadowLocalMemory(Ptr);
  }

private:
  ActivityAnalysis &AA;
};

bool mayHoldDerivatives(Type *T) {
  if (isDifferentiableType(T) || T->isPointerTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), mayHoldDerivatives);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return mayHoldDerivatives(AT->getElementType());
  // Untyped bytes (unions, memcpy'd structs) may hold anything.
  return T->isIntegerTy(8);
}

ActivityAnalysis::ActivityAnalysis(Function &Fn, ArrayRef<Activity> Args,
                                   const TypeAnalysis &Types,
                                   const ShadowedGlobals *Globals,
                                   const FunctionSet *MessagePassers)
    : F(Fn), Types(Types),
      Globals(Globals && !Globals->Shadow.empty() ? Globals : nullptr),
      MessagePassers(MessagePassers) {
  ADPhaseTimer Timer(ADPhase::Activity);
  for (auto [Arg, Act] : zip(F.args(), Args)) {
    if (Act == Activity::Active && isDifferentiableType(Arg.getType()))
      Varied.insert(&Arg);
    if (Act == Activity::Shadowed && Arg.getType()->isPointerTy())
      Shadowed.insert(&Arg);
    // A pointer passed as an integer (-O3's argument promotion of a struct
    // copied as an i64): its shadow comes as an integer too.
    if (Act == Activity::Shadowed && Arg.getType()->isIntegerTy())
      PointerBits.insert(&Arg);
  }
  // Loops carry facts around back edges, so iterate to a fixed point; each
  // round only adds facts, so this terminates.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        Changed |= visit(I);
  }
  keepOnlyUseful();
}

/// Whether differentiated code may move derivatives through the memory at
/// \p Ptr, so that it needs a shadow: a load or store through the address, a
/// memory intrinsic, a call to a function that is differentiated or has a
/// rule, or the address itself stored, merged or turned into an integer.
/// An address that only reaches calls to functions with no body and no rule
/// (or known to be inactive), comparisons and markers does not (-O0's
/// std::allocator<char> or std::string objects, a buffer for sprintf):
/// whatever those calls write there, no differentiated code reads, and a call
/// that receives neither a varied value nor a shadowed pointer is inactive
/// (see the rule in docs/DESIGN.md, "Calls without a body").
static bool reachesDifferentiatedCode(const Value &Ptr, unsigned Depth = 0) {
  if (Depth > 8)
    return true;
  for (const Use &U : Ptr.uses()) {
    const User *Usr = U.getUser();
    if (isa<ICmpInst>(Usr))
      continue;
    if (isa<GetElementPtrInst>(Usr) || isa<BitCastInst>(Usr) ||
        isa<AddrSpaceCastInst>(Usr)) {
      if (reachesDifferentiatedCode(*Usr, Depth + 1))
        return true;
      continue;
    }
    auto *Call = dyn_cast<CallBase>(Usr);
    if (!Call || !Call->isArgOperand(&U) || !takesNoShadows(rowOf(*Call)))
      return true;
  }
  return false;
}

/// A derivative can flow through operand \p Op into its user: not through
/// a comparison (its result is a boolean) nor through the condition of a
/// select (which chooses a value but adds nothing to it). A running maximum
/// whose value is read back after its loop (SelectReductions.h) is then
/// left with no use that needs its derivative.
static bool carriesDerivative(const Use &Op) {
  const User *U = Op.getUser();
  if (isa<CmpInst>(U))
    return false;
  if (isa<SelectInst>(U))
    return Op.getOperandNo() != 0; // the condition
  return true;
}

void ActivityAnalysis::keepOnlyUseful() {
  // Backward from what can reach the differentiated outputs: returned
  // values, values written to memory, arguments of calls that may store
  // them. Everything a useful instruction computes from is useful.
  DenseSet<const Value *> Useful;
  SmallVector<const Value *, 64> Work;
  auto Use = [&](const Value *V) {
    if (Useful.insert(V).second)
      Work.push_back(V);
  };
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      bool Root = isa<ReturnInst>(I);
      if (auto *Call = dyn_cast<CallBase>(&I))
        Root = mayStoreDerivatives(rowOf(*Call));
      else if (I.mayWriteToMemory())
        Root = true;
      if (Root)
        for (const llvm::Use &Op : I.operands())
          Use(Op.get());
    }
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I)
      continue;
    if (auto *Call = dyn_cast<CallBase>(I);
        Call && rowOf(*Call).Flow == DerivativeFlow::Inactive)
      continue;
    for (const llvm::Use &Op : I->operands())
      if (carriesDerivative(Op))
        Use(Op.get());
  }
  // Varied instructions whose value reaches no output need no derivative.
  // (Arguments stay: the derivative's signature has a place for them.)
  auto Useless = [&](const Value *V) {
    return isa<Instruction>(V) && !Useful.count(V);
  };
  for (const Value *V :
       SmallVector<const Value *, 16>(Varied.begin(), Varied.end()))
    if (Useless(V)) {
      Varied.erase(V);
      Unused.insert(V);
    }
  SmallVector<const Value *, 4> UselessBits;
  for (auto &[V, T] : FPBits)
    if (Useless(V))
      UselessBits.push_back(V);
  for (const Value *V : UselessBits) {
    FPBits.erase(V);
    Unused.insert(V);
  }
}

bool ActivityAnalysis::isShadowedGlobalAddress(const Value *V) const {
  if (!Globals || !isa<Constant>(V) || !V->getType()->isPointerTy())
    return false;
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(V));
  return GV && Globals->Shadow.count(GV);
}

bool ActivityAnalysis::accessesShadowedGlobals(const CallBase &Call) const {
  const Function *Callee = Globals ? calledFunction(Call) : nullptr;
  return Callee && Globals->Accessors.count(Callee);
}

bool ActivityAnalysis::exchangesMessages(const CallBase &Call) const {
  const Function *Callee = MessagePassers ? calledFunction(Call) : nullptr;
  return Callee && MessagePassers->count(Callee);
}

bool ActivityAnalysis::markVaried(const Value *V) {
  if (!isDifferentiableType(V->getType()))
    return false;
  return Varied.insert(V).second;
}

bool ActivityAnalysis::markShadowed(const Value *V) {
  if (!isPointerLike(V->getType()))
    return false;
  return Shadowed.insert(V).second;
}

bool ActivityAnalysis::markFPBits(const Value *V, Type *FPTy) {
  return FPBits.try_emplace(V, FPTy).second;
}

/// A store of \p V (directly or after phis and selects merge it): what makes
/// an integer load a copy.
static const StoreInst *storeOf(const Value *V, unsigned Depth = 0) {
  for (const User *U : V->users()) {
    if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getValueOperand() == V)
      return SI;
    if (Depth < 4 &&
        (isa<PHINode>(U) || isa<SelectInst>(U) || isa<FreezeInst>(U)))
      if (const StoreInst *SI = storeOf(U, Depth + 1))
        return SI;
  }
  return nullptr;
}

/// Whether the integer \p V may become (part of) an output: returned,
/// stored, passed to a call, or turned back into a float, rather than only
/// compared (a sign test on a double's bits).
static bool reachesOutput(const Value *V, unsigned Depth = 0) {
  for (const User *U : V->users()) {
    if (isa<CmpInst>(U) || isa<BranchInst>(U) || isa<SwitchInst>(U))
      continue;
    if (isa<ReturnInst>(U) || isa<StoreInst>(U) || isa<CallBase>(U) ||
        U->getType()->isFPOrFPVectorTy() || Depth > 8)
      return true;
    if (reachesOutput(U, Depth + 1))
      return true;
  }
  return false;
}

bool ActivityAnalysis::visitIntegerLoad(const LoadInst &LI) {
  const DataLayout &DL = F.getDataLayout();
  TypeSize StoreSize = DL.getTypeStoreSize(LI.getType());
  if (StoreSize.isScalable()) // Rejected with a diagnostic later.
    return false;
  uint64_t Size = StoreSize.getFixedValue();
  // A union or memcpy read of a float, reinterpreted right away.
  if (Type *FPTy = Size == 4   ? Type::getFloatTy(LI.getContext())
                   : Size == 8 ? Type::getDoubleTy(LI.getContext())
                               : nullptr;
      FPTy && LI.getType()->isIntegerTy() &&
      any_of(LI.users(), [](const User *U) {
        return isa<BitCastInst>(U) && U->getType()->isFloatingPointTy();
      }))
    return markFPBits(&LI, FPTy);
  // What the bytes hold decides what moves with them (TypeAnalysis.h). A
  // copy: at -O2 a struct or double assignment becomes an integer load and
  // store (into memory without a shadow, a float's bits would lose their
  // derivative: local memory then gets a shadow, anything else is an error
  // when the store is differentiated), and a byte loop copies anything as
  // i8. Any other use computes on the bits: a float's bits are then carried
  // by the integer (checked as fpBitsMisuse), several floats' (a struct of
  // floats passed as one i64) are an error.
  auto Known = Copies.find(&LI);
  if (Known == Copies.end()) {
    const StoreInst *Store = storeOf(&LI);
    bool IsCopy = Store;
    CopyContent C = Types.integerCopyContent(LI, Store, Size, !IsCopy);
    std::pair<CopyKind, Type *> What{CopyKind::Integer, nullptr};
    if (C.WholeFloat && LI.getType()->isIntegerTy())
      What = {CopyKind::Float, C.WholeFloat};
    else if (C.AnyFloat && (IsCopy || reachesOutput(&LI)))
      What = {IsCopy ? CopyKind::PartFloat : CopyKind::FloatsInInteger,
              nullptr};
    else if (C.AnyPointer && C.AllKnown)
      What = {CopyKind::Pointer, nullptr};
    else if (!IsCopy)
      What = {CopyKind::Integer, nullptr};
    else if (!C.AllKnown && (C.AnyPointer || Size >= 4))
      What = {CopyKind::Unknown, nullptr}; // Bytes a float or pointer fits.
    if (What.first != CopyKind::Integer)
      Types.explainContent(LI, LI.getPointerOperand());
    Known = Copies.try_emplace(&LI, What).first;
  }
  auto [Kind, Ty] = Known->second;
  if (Kind == CopyKind::Float)
    return markFPBits(&LI, Ty);
  if (Kind == CopyKind::Pointer)
    return markPointerBits(&LI);
  return false;
}

const Instruction *ActivityAnalysis::firstCopy(CopyKind Kind) const {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        auto It = Copies.find(LI);
        if (It != Copies.end() && It->second.first == Kind)
          return LI;
      }
  return nullptr;
}

bool ActivityAnalysis::shadowLocalMemory(const Value *Ptr) {
  if (!Ptr->getType()->isPointerTy() || hasShadow(Ptr))
    return false;
  const Value *Base = getUnderlyingObject(Ptr);
  bool Local = isa<AllocaInst>(Base);
  if (auto *Call = dyn_cast<CallBase>(Base))
    Local = rowOf(*Call).ReturnsFreshMemory;
  return Local && markShadowed(Base);
}

bool ActivityAnalysis::markPointerBits(const Value *V) {
  return PointerBits.insert(V).second;
}

bool ActivityAnalysis::visit(const Instruction &I) {
  if (isVaried(&I) && (!I.getType()->isPointerTy() || hasShadow(&I)))
    return false;

  if (auto *BC = dyn_cast<BitCastInst>(&I)) {
    const Value *Src = BC->getOperand(0);
    if (I.getType()->isIntegerTy() && Src->getType()->isFloatingPointTy() &&
        isVaried(Src))
      return markFPBits(&I, Src->getType());
    if (I.getType()->isFloatingPointTy() && fpBitsType(Src))
      return markVaried(&I);
  }
  if (auto *LI = dyn_cast<LoadInst>(&I); LI &&
                                         I.getType()->isIntOrIntVectorTy() &&
                                         hasShadow(LI->getPointerOperand()))
    return visitIntegerLoad(*LI);
  if (I.getType()->isIntOrIntVectorTy() &&
      (isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I))) {
    for (const Use &U : I.operands()) {
      if (Type *T = fpBitsType(U))
        return markFPBits(&I, T);
      if (movesPointerBits(U))
        return markPointerBits(&I);
    }
    return false;
  }

  if (auto *AI = dyn_cast<AllocaInst>(&I))
    return mayHoldDerivatives(AI->getAllocatedType()) &&
           !isInactiveLibraryType(AI->getAllocatedType()) &&
           reachesDifferentiatedCode(*AI) && markShadowed(AI);

  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (!hasShadow(LI->getPointerOperand()))
      return false;
    return markVaried(LI) | markShadowed(LI);
  }

  // A floating-point atomic update (CUDA's atomicAdd, OpenMP's atomic) both
  // reads the location, like a load, and writes a value into it, like a
  // store. Integer atomics carry no derivative; one that moves pointers
  // propagates as any other instruction (and has no shadow rule).
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
      RMW && RMW->getValOperand()->getType()->isFPOrFPVectorTy()) {
    const Value *Ptr = RMW->getPointerOperand();
    if (!hasShadow(Ptr))
      return isVaried(RMW->getValOperand()) && shadowLocalMemory(Ptr);
    return markVaried(RMW);
  }

  if (auto *Call = dyn_cast<CallBase>(&I)) {
    CalleeInfo Info = classifyCallee(*Call);
    auto *Learn = rowOf(Info.Kind).Activity;
    if (!Learn)
      return false;
    Facts RowFacts(*this);
    return Learn(RowFacts, *Call, Info);
  }

  // The address of local memory stored into differentiated memory, or
  // merged with a shadowed pointer, may be loaded back and written through
  // like any differentiated pointer: that memory needs a shadow of its own
  // (even an int array: a null shadow would be written by the adjoint of an
  // integer store).
  // Likewise local memory that receives a derivative: a double (or its
  // bits, in a `long` at -O0) stored or copied into it.
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    const Value *Val = SI->getValueOperand(), *Ptr = SI->getPointerOperand();
    if (hasShadow(Ptr))
      return shadowLocalMemory(Val);
    return (isVaried(Val) || hasShadow(Val) || movesPointerBits(Val)) &&
           shadowLocalMemory(Ptr);
  }
  if ((isa<PHINode>(I) || isa<SelectInst>(I)) && I.getType()->isPointerTy() &&
      hasShadow(&I)) {
    bool Changed = false;
    for (const Use &U : I.operands())
      Changed |= shadowLocalMemory(U);
    return Changed;
  }

  // A pointer turned into an integer keeps its shadow beside it as an
  // integer; turned back, the pointer has that shadow.
  if (auto *P2I = dyn_cast<PtrToIntInst>(&I))
    return hasShadow(P2I->getPointerOperand()) &&
           I.getType()->getScalarSizeInBits() ==
               F.getDataLayout().getPointerTypeSizeInBits(
                   P2I->getPointerOperand()->getType()) &&
           markPointerBits(&I);
  if (auto *I2P = dyn_cast<IntToPtrInst>(&I))
    return movesPointerBits(I2P->getOperand(0)) && markShadowed(&I);

  if (isa<IntToPtrInst>(I) || isa<PtrToIntInst>(I) || isa<CmpInst>(I) ||
      isa<SIToFPInst>(I) || isa<UIToFPInst>(I) || isa<FPToSIInst>(I) ||
      isa<FPToUIInst>(I))
    return false;

  // Everything else propagates from its operands: arithmetic, casts, phi,
  // select, GEP, vector and aggregate operations.
  bool Changed = false;
  const Value *Skip = nullptr;
  if (auto *Sel = dyn_cast<SelectInst>(&I))
    Skip = Sel->getCondition();
  for (const Use &U : I.operands()) {
    if (U.get() == Skip)
      continue;
    if (isVaried(U))
      Changed |= markVaried(&I);
    if (hasShadow(U))
      Changed |= markShadowed(&I);
  }
  return Changed;
}

const Instruction *ActivityAnalysis::fpBitsMisuse() const {
  for (auto &[V, T] : FPBits)
    for (const User *U : V->users()) {
      if (isa<BitCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U) ||
          isa<FreezeInst>(U) || isa<CmpInst>(U))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getValueOperand() == V)
        continue;
      if (auto *I = dyn_cast<Instruction>(U))
        return I;
    }
  return nullptr;
}

const Instruction *ActivityAnalysis::pointerRebuiltFromInteger() const {
  bool ShadowedToInt = false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *P2I = dyn_cast<PtrToIntInst>(&I))
        ShadowedToInt |= hasShadow(P2I->getPointerOperand());
  if (!ShadowedToInt)
    return nullptr;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (isa<IntToPtrInst>(I) && !hasShadow(&I)) // Not rebuilt from bits.
        for (const User *U : I.users())
          if (!isa<CmpInst>(U))
            return &I;
  return nullptr;
}

void ActivityAnalysis::print(raw_ostream &OS) const {
  // One line per argument and per instruction that is not plainly inactive:
  // "varied" (gets a derivative), "unused" (depends on the inputs but
  // reaches no output: no derivative), "shadowed" (a pointer with a shadow),
  // "bits of double" (an integer carrying a float).
  auto Describe = [&](const Value *V) {
    std::string S;
    raw_string_ostream W(S);
    if (Varied.count(V))
      W << " varied";
    if (Type *T = fpBitsType(V))
      W << " bits of " << *T;
    if (Unused.count(V))
      W << " unused";
    if (hasShadow(V))
      W << " shadowed";
    return S;
  };
  OS << "activity of " << F.getName() << ":\n";
  for (const Argument &A : F.args())
    OS << "  arg " << A.getArgNo() << Describe(&A) << "\n";
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      std::string What = Describe(&I);
      if (What.empty())
        continue;
      OS << " " << What << ":";
      I.print(OS);
      OS << "\n";
    }
}

} // namespace ad
