//===- RuleTable.cpp - Derivative rules indexed by callee signature
//--------===//
#include "rules/RuleTable.h"
#include "rules/KnownFunctions.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace ad {

/// A structural hash of \p T: the same for the same type in any context.
static stable_hash typeHash(Type *T) {
  SmallVector<stable_hash, 8> Parts = {T->getTypeID()};
  if (auto *IT = dyn_cast<IntegerType>(T))
    Parts.push_back(IT->getBitWidth());
  else if (auto *VT = dyn_cast<VectorType>(T)) {
    Parts.push_back(VT->getElementCount().getKnownMinValue());
    Parts.push_back(VT->getElementCount().isScalable());
    Parts.push_back(typeHash(VT->getElementType()));
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    Parts.push_back(AT->getNumElements());
    Parts.push_back(typeHash(AT->getElementType()));
  } else if (auto *PT = dyn_cast<PointerType>(T))
    Parts.push_back(PT->getAddressSpace());
  else if (auto *ST = dyn_cast<StructType>(T)) {
    Parts.push_back(ST->isPacked());
    for (Type *E : ST->elements())
      Parts.push_back(typeHash(E));
  } else if (auto *FT = dyn_cast<FunctionType>(T)) {
    Parts.push_back(FT->isVarArg());
    Parts.push_back(typeHash(FT->getReturnType()));
    for (Type *P : FT->params())
      Parts.push_back(typeHash(P));
  }
  return stable_hash_combine(Parts);
}

stable_hash signatureHash(const Function &Callee) {
  stable_hash Type = typeHash(Callee.getFunctionType());
  if (Intrinsic::ID ID = Callee.getIntrinsicID())
    return stable_hash_combine(1, ID, Type);
  return stable_hash_combine(2, xxh3_64bits(Callee.getName()), Type);
}

CalleeInfo RuleTable::classify(const CallBase &Call) {
  auto Site = BySite.find(&Call);
  if (Site != BySite.end()) {
    ++Stats.SiteHits;
    return Site->second;
  }
  CalleeInfo Info;
  const Function *Callee = calledFunction(Call);
  if (!Callee) {
    Info = resolveCallee(Call, Custom);
  } else {
    ++Stats.TableLookups;
    auto [It, Inserted] = BySignature.try_emplace(signatureHash(*Callee));
    if (Inserted) {
      ++Stats.Resolutions;
      It->second = resolveCallee(Call, Custom);
    }
    Info = It->second;
  }
  BySite[&Call] = Info;
  return Info;
}

static thread_local RuleTable *Active = nullptr;

RuleTable::Scope::Scope(RuleTable &T) : Saved(Active) { Active = &T; }
RuleTable::Scope::~Scope() { Active = Saved; }
RuleTable *RuleTable::active() { return Active; }

} // namespace ad
