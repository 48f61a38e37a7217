//===- DerivativeCache.cpp - Each derivative synthesized once, then reused
//--===//
#include "modes/DerivativeCache.h"
#include "analysis/IterationOwnership.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "modes/CheckpointBuilder.h"
#include "modes/FusedIterations.h"
#include "modes/ReverseBuilder.h"
#include "modes/TangentBuilder.h"
#include "primal/CheckpointLoops.h"
#include "primal/Preprocess.h"
#include "primal/ReloadVersioning.h"
#include "primal/StoreForwarding.h"
#include "support/TimeReport.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "ad"

using namespace llvm;

STATISTIC(NumSynthesized, "Derivative functions synthesized");
STATISTIC(NumReused, "Derivative requests served from the cache");

namespace ad {

Type *adjointResultType(const DerivativeSignature &Sig) {
  SmallVector<Type *, 4> Fields;
  for (auto [Arg, Act] : zip(Sig.Primal->args(), Sig.Args))
    if (Act == Activity::Active)
      Fields.push_back(Arg.getType());
  LLVMContext &C = Sig.Primal->getContext();
  if (Fields.empty())
    return Type::getVoidTy(C);
  return StructType::get(C, Fields);
}

static SmallVector<Type *, 8> primalParams(const DerivativeSignature &Sig) {
  SmallVector<Type *, 8> Params(Sig.Primal->getFunctionType()->params());
  return Params;
}

static void appendShadows(const DerivativeSignature &Sig,
                          SmallVectorImpl<Type *> &Params) {
  for (auto [Arg, Act] : zip(Sig.Primal->args(), Sig.Args))
    if (Act == Activity::Shadowed)
      Params.push_back(Arg.getType());
}

FunctionType *tangentFunctionType(const DerivativeSignature &Sig) {
  SmallVector<Type *, 8> Params = primalParams(Sig);
  for (auto [Arg, Act] : zip(Sig.Primal->args(), Sig.Args))
    if (Act != Activity::Const)
      Params.push_back(Arg.getType());
  Type *Ret = Sig.Primal->getReturnType();
  if (Sig.ReturnActive)
    Ret = StructType::get(Ret->getContext(), {Ret, Ret});
  return FunctionType::get(Ret, Params, false);
}

FunctionType *gradientFunctionType(const DerivativeSignature &Sig) {
  SmallVector<Type *, 8> Params = primalParams(Sig);
  appendShadows(Sig, Params);
  if (Sig.ReturnActive)
    Params.push_back(Sig.Primal->getReturnType());
  return FunctionType::get(adjointResultType(Sig), Params, false);
}

FunctionType *augmentedFunctionType(const DerivativeSignature &Sig) {
  SmallVector<Type *, 8> Params = primalParams(Sig);
  appendShadows(Sig, Params);
  LLVMContext &C = Sig.Primal->getContext();
  Params.push_back(PointerType::getUnqual(C));
  Type *Ret = Sig.Primal->getReturnType();
  if (Sig.ReturnActive && isPointerLike(Ret))
    Ret = StructType::get(C, {Ret, Ret});
  return FunctionType::get(Ret, Params, false);
}

FunctionType *adjointFunctionType(const DerivativeSignature &Sig) {
  SmallVector<Type *, 2> Params;
  Type *Ret = Sig.Primal->getReturnType();
  if (Sig.ReturnActive && isDifferentiableType(Ret))
    Params.push_back(Ret);
  Params.push_back(PointerType::getUnqual(Sig.Primal->getContext()));
  return FunctionType::get(adjointResultType(Sig), Params, false);
}

Function *DerivativeCache::newFunction(FunctionType *Ty, const Twine &Name,
                                       Function *Primal,
                                       bool PrimalParamsFirst) {
  Function *F =
      Function::Create(Ty, GlobalValue::InternalLinkage, Name, &Ctx.M);
  F->copyAttributesFrom(Primal);
  F->setAttributes(AttributeList::get(
      F->getContext(), F->getAttributes().getFnAttrs(), AttributeSet(), {}));
  F->setLinkage(GlobalValue::InternalLinkage);
  F->setVisibility(GlobalValue::DefaultVisibility);
  F->setComdat(nullptr);
  F->setDSOLocal(true);
  // The primal may have been given fastcc; derivatives are called with C's.
  F->setCallingConv(CallingConv::C);
  dropPrimalOnlyAttributes(*F);
  // Differentiated again (nested derivatives), its code is Primal's code,
  // and its leading parameters (all but an adjoint's) are Primal's.
  Ctx.Diag.setDerivativeOf(F, Primal);
  if (PrimalParamsFirst)
    Ctx.ArgTypes.addClone(F, Primal);
  Created.push_back(F);
  ++Synthesized;
  ++NumSynthesized;
  return F;
}

void DerivativeCache::discard(Function *F) {
  // The error has been reported; leave a valid, inert body behind.
  F->deleteBody();
  F->setLinkage(GlobalValue::ExternalLinkage);
}

void DerivativeCache::registerCanonical(Function *Clone, Function *F) {
  Counted[Clone] = std::make_unique<CountedLoopMap>(
      materializeCountedLoops(*Clone, Ctx.FAM));
  Bounds[Clone] = std::make_unique<IterationBoundMap>(
      materializeIterationBounds(*Clone, Ctx.FAM));
  Ctx.ArgTypes.addClone(Clone, F);
  Ctx.Diag.setOriginal(Clone, F);
  Created.push_back(Clone);
}

Function *DerivativeCache::canonicalPrimal(Function *F) {
  auto [It, Inserted] = Canonical.try_emplace(F, nullptr);
  if (Inserted) {
    ADPhaseTimer Timer(ADPhase::CanonicalPrimal);
    unsigned ReadBack = 0;
    It->second = createCanonicalPrimal(*F, Ctx.FAM, Ctx.Callees,
                                       /*Report=*/true, &ReadBack);
    registerCanonical(It->second, F);
    if (ReadBack)
      OptimizationRemarkEmitter(F).emit([&] {
        return OptimizationRemark("ad", "SelectReduction", F)
               << "derivatives of '" << ore::NV("Function", F->getName())
               << "' read " << ore::NV("Reductions", ReadBack)
               << " running extreme(s) (an element chosen by a select in a "
                  "loop) back from memory after the loop, instead of "
                  "differentiating the select in every iteration";
      });
  }
  return It->second;
}

/// A fresh canonical clone of \p F with the pointer parameters in
/// \p NoAliasArgs declared noalias (the caller vouches for them).
static Function *canonicalWithNoAlias(Function &F, uint64_t NoAliasArgs,
                                      ADContext &Ctx) {
  Function *Clone =
      createCanonicalPrimal(F, Ctx.FAM, Ctx.Callees, /*Report=*/false);
  for (Argument &A : Clone->args())
    if (A.getArgNo() < 64 && ((NoAliasArgs >> A.getArgNo()) & 1) &&
        A.getType()->isPointerTy())
      A.addAttr(Attribute::NoAlias);
  return Clone;
}

Function *DerivativeCache::gradientPrimal(Function *F, uint64_t NoAliasArgs,
                                          bool Nested) {
  auto [It, Inserted] =
      GradientCanonical.try_emplace({F, NoAliasArgs, Nested}, nullptr);
  if (!Inserted)
    return It->second;
  Function *Shared = canonicalPrimal(F);
  // Nothing repeats: no load is taped more than once. (A parallel region
  // is a loop, in its threads.)
  if (Ctx.FAM.getResult<LoopAnalysis>(*Shared).empty() &&
      !hasParallelRegionCall(*Shared)) {
    if (!NoAliasArgs)
      return It->second = Shared;
    // Its own copy still, for the caller's noalias: what the gradient may
    // read back, and the stores to __ad_dupnoneed memory it may leave out.
    ADPhaseTimer Timer(ADPhase::CanonicalPrimal);
    Function *Clone = canonicalWithNoAlias(*F, NoAliasArgs, Ctx);
    Clone->setName(F->getName() + ".ad.primal.noalias");
    registerCanonical(Clone, F);
    return It->second = Clone;
  }
  ADPhaseTimer Timer(ADPhase::CanonicalPrimal);
  SmallVector<Function *, 6> Outlined;
  bool Quiet = false;
  // The clone, its time loops outlined for checkpointing where they can be
  // (first: the other rewrites then see a loop's steps as one call).
  auto FreshClone = [&] {
    Function *Clone = canonicalWithNoAlias(*F, NoAliasArgs, Ctx);
    CheckpointOutlining O;
    if (!Nested)
      O = outlineCheckpointedLoops(*Clone, *F, Ctx.FAM, Quiet);
    // Remarks once, not again for a second clone.
    Quiet = true;
    if (O.Failed) {
      // A rewrite that gave up leaves the clone in no defined state.
      Ctx.FAM.clear(*Clone, Clone->getName());
      Clone->eraseFromParent();
      for (Function *Made : O.Made) {
        Ctx.FAM.clear(*Made, Made->getName());
        Made->dropAllReferences();
      }
      for (Function *Made : O.Made)
        Made->eraseFromParent();
      Clone = canonicalWithNoAlias(*F, NoAliasArgs, Ctx);
      O.Made.clear();
    }
    Outlined = std::move(O.Made);
    return Clone;
  };
  Function *Clone = FreshClone();
  // Forwarded first: the loads it replaces need no run-time checks.
  unsigned Forwarded = forwardStoredValues(*Clone, Ctx.FAM);
  std::optional<ReloadVersions> Versions = versionForReloads(*Clone, Ctx.FAM);
  if (!Versions) {
    // Versioning leaves a function it gives up on in no defined state.
    Ctx.FAM.clear(*Clone, Clone->getName());
    Clone->eraseFromParent();
    for (Function *Made : Outlined) {
      Ctx.FAM.clear(*Made, Made->getName());
      Made->dropAllReferences();
    }
    for (Function *Made : Outlined)
      Made->eraseFromParent();
    if (!Forwarded && !NoAliasArgs && Outlined.empty())
      return It->second = Shared;
    Clone = FreshClone();
    forwardStoredValues(*Clone, Ctx.FAM);
  }
  Clone->setName(F->getName() + (Versions    ? ".ad.primal.versioned"
                                 : Forwarded ? ".ad.primal.forwarded"
                                             : ".ad.primal.noalias"));
  registerCanonical(Clone, F);
  for (Function *Made : Outlined)
    adoptOutlined(Made, F);
  OptimizationRemarkEmitter ORE(F);
  if (Forwarded)
    ORE.emit([&] {
      return OptimizationRemark("ad", "StoreForwarded", F)
             << "gradient of '" << ore::NV("Function", demangle(F->getName()))
             << "' recomputes " << ore::NV("Loads", Forwarded)
             << " load(s) of values an earlier loop stored from memory "
                "nothing overwrites, instead of caching them";
    });
  if (!Versions)
    return It->second = Clone;
  ORE.emit([&] {
    OptimizationRemark R("ad", "Versioned", F);
    R << "gradient of '" << ore::NV("Function", demangle(F->getName()))
      << "' checks at run time (" << ore::NV("Checks", Versions->Checks)
      << " conditions) that no later write changes "
      << ore::NV("Accesses", Versions->Accesses)
      << " loaded or stored values, and reads them back instead of "
         "caching them when none does";
    if (Versions->InLoop)
      R << "; and that no write in their own loop changes "
        << ore::NV("InLoop", Versions->InLoop)
        << " more, cached once per entry into the loop instead of once per "
           "iteration";
    if (Versions->RegionArguments)
      R << "; and that nothing overwrites what parallel regions read through "
        << ore::NV("RegionArguments", Versions->RegionArguments)
        << " argument(s), which their derivatives then read back";
    if (Versions->RegionWritten)
      R << "; and that nothing overwrites what parallel regions wrote "
           "through "
        << ore::NV("RegionWritten", Versions->RegionWritten)
        << " argument(s), which their derivatives then read back";
    if (Versions->RegionOwned)
      R << "; and that every location "
        << ore::NV("RegionOwned", Versions->RegionOwned)
        << " parallel region argument(s) point to belongs to one iteration, "
           "whose adjoints then need no atomic adds";
    return R;
  });
  CheckedCopies[Clone] = std::make_unique<DenseSet<const BasicBlock *>>(
      std::move(Versions->CheckedCopy));
  return It->second = Clone;
}

const IterationOwnedMemory &DerivativeCache::iterationOwned(Function *Body) {
  std::unique_ptr<IterationOwnedMemory> &Owned = IterationOwned[Body];
  if (!Owned)
    Owned = std::make_unique<IterationOwnedMemory>(iterationOwnedParameters(
        *Body, Ctx.FAM.getResult<ScalarEvolutionAnalysis>(*Body),
        Ctx.FAM.getResult<LoopAnalysis>(*Body)));
  return *Owned;
}

Function *DerivativeCache::tangent(const DerivativeSignature &Sig) {
  auto [It, Inserted] = Tangents.try_emplace(Sig.key(), nullptr);
  if (!Inserted) {
    ++Reused;
    ++NumReused;
    return It->second;
  }
  Function *F = newFunction(tangentFunctionType(Sig),
                            Sig.Primal->getName() + ".ad.tangent", Sig.Primal);
  It->second = F;
  ADPhaseTimer Timer(ADPhase::ForwardMode);
  TangentBuilder Builder(Ctx, Sig, canonicalPrimal(Sig.Primal), F);
  if (!Builder.build()) {
    discard(F);
    Tangents[Sig.key()] = nullptr;
    return nullptr;
  }
  return F;
}

Function *DerivativeCache::gradient(const DerivativeSignature &Sig) {
  auto [It, Inserted] = Gradients.try_emplace(Sig.key(), nullptr);
  if (!Inserted) {
    ++Reused;
    ++NumReused;
    return It->second;
  }
  Function *F = newFunction(gradientFunctionType(Sig),
                            Sig.Primal->getName() + ".ad.gradient", Sig.Primal);
  It->second = F;
  ADPhaseTimer Timer(ADPhase::ReverseMode);
  if (buildFusedGradient(Ctx, *this, Sig, *F))
    return F;
  if (!buildSweptGradient(Sig, *F)) {
    Gradients[Sig.key()] = nullptr;
    return nullptr;
  }
  return F;
}

Function *DerivativeCache::sweptGradient(const DerivativeSignature &Sig) {
  std::string Key = Sig.key() + "|swept";
  auto [It, Inserted] = Gradients.try_emplace(Key, nullptr);
  if (!Inserted) {
    ++Reused;
    ++NumReused;
    return It->second;
  }
  Function *F =
      newFunction(gradientFunctionType(Sig),
                  Sig.Primal->getName() + ".ad.gradient.swept", Sig.Primal);
  It->second = F;
  ADPhaseTimer Timer(ADPhase::ReverseMode);
  if (!buildSweptGradient(Sig, *F)) {
    Gradients[Key] = nullptr;
    return nullptr;
  }
  return F;
}

bool DerivativeCache::buildSweptGradient(const DerivativeSignature &Sig,
                                         Function &F) {
  ReverseBuilder Builder(
      Ctx, Sig, gradientPrimal(Sig.Primal, Sig.NoAliasArgs, Sig.Nested), &F,
      &F);
  if (Builder.build())
    return true;
  discard(&F);
  return false;
}

/// The caller vouches that the call writes no memory that pointer argument k
/// points into, for every k in Sig.UnwrittenArgs. With at most one pointer
/// argument outside that set, memory one argument reaches and the call
/// modifies is reached by no other: every primal pointer parameter of the
/// augmented forward sweep is noalias, and its loops need no runtime alias
/// checks.
static void markDisjointArguments(const DerivativeSignature &Sig,
                                  Function &Augmented) {
  unsigned Written = 0;
  for (const Argument &A : Sig.Primal->args())
    if (A.getType()->isPointerTy() &&
        (A.getArgNo() >= 64 || !((Sig.UnwrittenArgs >> A.getArgNo()) & 1)))
      ++Written;
  if (Written > 1)
    return;
  for (const Argument &A : Sig.Primal->args())
    if (A.getType()->isPointerTy())
      Augmented.getArg(A.getArgNo())->addAttr(Attribute::NoAlias);
}

SplitDerivative DerivativeCache::split(const DerivativeSignature &Sig) {
  auto [It, Inserted] = Splits.try_emplace(Sig.key());
  if (!Inserted) {
    ++Reused;
    ++NumReused;
    return It->second;
  }
  SplitDerivative S;
  S.Augmented =
      newFunction(augmentedFunctionType(Sig),
                  Sig.Primal->getName() + ".ad.augmented", Sig.Primal);
  S.Adjoint = newFunction(adjointFunctionType(Sig),
                          Sig.Primal->getName() + ".ad.adjoint", Sig.Primal,
                          /*PrimalParamsFirst=*/false);
  It->second = S;
  ADPhaseTimer Timer(ADPhase::ReverseMode);
  if (std::optional<CheckpointedLoop> Loop = checkpointedLoop(*Sig.Primal)) {
    if (!buildCheckpointedLoop(Ctx, Sig, *Loop, *S.Augmented, *S.Adjoint)) {
      discard(S.Augmented);
      discard(S.Adjoint);
      Splits[Sig.key()] = SplitDerivative();
      return SplitDerivative();
    }
    Augmented.insert(S.Augmented);
    return S;
  }
  ReverseBuilder Builder(Ctx, Sig, canonicalPrimal(Sig.Primal), S.Augmented,
                         S.Adjoint);
  if (!Builder.build()) {
    discard(S.Augmented);
    discard(S.Adjoint);
    Splits[Sig.key()] = SplitDerivative();
    return SplitDerivative();
  }
  markDisjointArguments(Sig, *S.Augmented);
  Augmented.insert(S.Augmented);
  return S;
}

} // namespace ad
