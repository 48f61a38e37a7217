//===- DerivativeCallSites.cpp - Where derivatives meet their callers -----===//
//
// See DerivativeCallSites.h. The three steps run in ADPass's finishing
// order: constants folded into the bodies before they are optimized, the
// optimized bodies measured and inlined where they are small enough, and
// the measurements reported.
//
//===----------------------------------------------------------------------===//
#include "driver/DerivativeCallSites.h"
#include "support/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

static cl::opt<bool> InlineDerivatives(
    "ad-inline-derivatives", cl::init(true), cl::Hidden,
    cl::desc("Inline a host derivative into the code that called the entry "
             "point where LLVM's inline cost model accepts it (false: every "
             "derivative stays a function of its own, e.g. for profiling)"));

namespace ad {

namespace {
/// The constant every call of \p F passes as \p A, or null when the calls
/// differ, one passes a variable or undef, or \p F has a use that is not a
/// direct call (its address escapes: a caller we cannot see may pass
/// anything).
Constant *argumentEveryCallPasses(Function &F, Argument &A) {
  Constant *Same = nullptr;
  for (User *U : F.users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != &F ||
        Call->getFunctionType() != F.getFunctionType())
      return nullptr;
    auto *C = dyn_cast<Constant>(Call->getArgOperand(A.getArgNo()));
    if (!C || isa<UndefValue>(C) || (Same && Same != C))
      return nullptr;
    Same = C;
  }
  return Same;
}
} // namespace

unsigned foldConstantArguments(ArrayRef<Function *> Functions) {
  unsigned Folded = 0;
  for (Function *F : Functions) {
    if (F->isDeclaration() || !F->hasLocalLinkage() || F->use_empty())
      continue;
    for (Argument &A : F->args()) {
      // A byval parameter is a private copy, not the pointer passed.
      if (A.use_empty() || A.hasPassPointeeByValueCopyAttr())
        continue;
      if (Constant *C = argumentEveryCallPasses(*F, A)) {
        A.replaceAllUsesWith(C);
        ++Folded;
      }
    }
  }
  return Folded;
}

SmallVector<unsigned>
inlineDerivativesIntoCallers(ArrayRef<Function *> Synthesized, bool Always,
                             OptimizationLevel Level,
                             FunctionAnalysisManager &FAM) {
  SmallVector<unsigned> Inlined(Synthesized.size(), 0);
  if (!Always && !InlineDerivatives)
    return Inlined;
  SmallPtrSet<const Function *, 16> IsSynthesized(Synthesized.begin(),
                                                  Synthesized.end());
  InlineParams Params =
      getInlineParams(Level.getSpeedupLevel(), Level.getSizeLevel());
  auto GetAC = [&](Function &F) -> AssumptionCache & {
    return FAM.getResult<AssumptionAnalysis>(F);
  };
  auto GetTLI = [&](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  // The calls the entry points became, gathered before any is inlined: a
  // derivative's own calls of others (a layer's split derivative) that
  // inlining brings into the user's function stay calls, as they were.
  SmallVector<std::pair<CallBase *, unsigned>, 8> Calls;
  for (auto [Index, F] : enumerate(Synthesized))
    if (!F->isDeclaration())
      for (User *U : F->users())
        if (auto *Call = dyn_cast<CallBase>(U))
          if (Call->getCalledFunction() == F &&
              !IsSynthesized.contains(Call->getFunction()))
            Calls.push_back({Call, Index});
  for (auto [Call, Index] : Calls) {
    Function *Caller = Call->getFunction();
    if (!Always) {
      // Asked one call at a time: inlining into a caller changes what the
      // next call of the same derivative costs (the last one of a local
      // function gets the inliner's bonus).
      InlineCost Cost = getInlineCost(
          *Call, Params, FAM.getResult<TargetIRAnalysis>(*Synthesized[Index]),
          GetAC, GetTLI);
      if (!Cost)
        continue;
    }
    InlineFunctionInfo IFI;
    if (InlineFunction(*Call, IFI).isSuccess()) {
      ++Inlined[Index];
      FAM.invalidate(*Caller, PreservedAnalyses::none());
    }
  }
  return Inlined;
}

DerivativeOrigins describeOrigins(ArrayRef<Function *> Synthesized,
                                  const DiagnosticReporter &Diag) {
  DerivativeOrigins Origins;
  for (Function *F : Synthesized)
    Origins[F] = {&Diag.sourceFunction(*F), Diag.describeFunction(*F)};
  return Origins;
}

void remarkDerivativeSizes(ArrayRef<Function *> Synthesized,
                           ArrayRef<unsigned> InlinedInto, bool Optimized,
                           const DerivativeOrigins &Origins,
                           const Function &Fallback) {
  if (Synthesized.empty())
    return;
  // The user's function may be gone by now (a static function whose every
  // call was inlined): its derivative is then reported at the module's
  // first caller of an entry point, still under its name.
  DenseSet<const Function *> Live;
  for (const Function &F : *Synthesized.front()->getParent())
    Live.insert(&F);
  for (auto [Index, F] : enumerate(Synthesized)) {
    auto Origin = Origins.find(F);
    if (F->isDeclaration() || Origin == Origins.end())
      continue;
    const Function *Source = Origin->second.first;
    const Function &At = Live.contains(Source) ? *Source : Fallback;
    OptimizationRemarkEmitter ORE(&At);
    ORE.emit([&] {
      OptimizationRemark R("ad", "DerivativeSize", &At);
      R << "'" << ore::NV("Derivative", F->getName()) << "', derived from "
        << Origin->second.second << ": "
        << ore::NV("Instructions", F->getInstructionCount())
        << " instructions in " << ore::NV("Blocks", unsigned(F->size()))
        << " blocks"
        << (Optimized ? " after optimization" : " (not optimized)");
      unsigned Inlined = Index < InlinedInto.size() ? InlinedInto[Index] : 0;
      if (Inlined)
        R << "; inlined into " << ore::NV("InlinedCalls", Inlined)
          << " call site(s)";
      return R;
    });
  }
}

} // namespace ad
