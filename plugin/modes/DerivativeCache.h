//===- DerivativeCache.h - Each derivative synthesized once, then reused
//----===//
//
// Maps a DerivativeSignature to the function(s) synthesized for it. A
// function is entered before its body is built, so recursion (direct or
// mutual) finds the derivative under construction and calls it. Canonical
// primals are cached the same way, once per user function.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_DERIVATIVECACHE_H
#define AD_MODES_DERIVATIVECACHE_H

#include "analysis/ArgumentTypes.h"
#include "analysis/IndirectCallees.h"
#include "analysis/IterationOwnership.h"
#include "analysis/TypeAnalysis.h"
#include "core/DerivativeSignature.h"
#include "primal/CountedLoops.h"
#include "primal/TapeReservation.h"
#include "runtime/RuntimeFunctions.h"
#include "support/Diagnostics.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/PassManager.h"
#include <map>
#include <memory>

namespace ad {

struct ShadowedGlobals;

struct SplitDerivative {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Adjoint = nullptr;
  explicit operator bool() const { return Augmented && Adjoint; }
};

/// What the builders share while differentiating one module.
struct ADContext {
  llvm::Module &M;
  llvm::FunctionAnalysisManager &FAM;
  DiagnosticReporter &Diag;
  RuntimeFunctions Runtime;
  class DerivativeCache *Cache;
  /// What callers pass in pointer parameters (memory layouts at -O0).
  ArgumentTypes ArgTypes;
  /// What the bytes of memory hold (memcpy layouts, integer copies).
  TypeAnalysis Types{M.getDataLayout(), &ArgTypes};
  /// The mutable globals given shadows (MutableGlobals.h); none if null.
  const ShadowedGlobals *Globals = nullptr;
  /// The functions that exchange MPI messages (rules/MessagePassing.h,
  /// findMessagePassers); none if null.
  const llvm::DenseSet<const llvm::Function *> *MessagePassers = nullptr;
  /// What the module's indirect calls may reach, per function type.
  IndirectCalleeCache Callees{M};
};

class DerivativeCache {
public:
  explicit DerivativeCache(ADContext &Ctx) : Ctx(Ctx) {}

  llvm::Function *tangent(const DerivativeSignature &Sig);
  llvm::Function *gradient(const DerivativeSignature &Sig);
  /// The gradient of \p Sig with its forward and reverse sweeps whole, never
  /// fused (modes/FusedIterations.h): what a fused gradient calls where its
  /// run-time checks fail.
  llvm::Function *sweptGradient(const DerivativeSignature &Sig);
  SplitDerivative split(const DerivativeSignature &Sig);

  /// The canonical clone of a user function (see Preprocess.h).
  llvm::Function *canonicalPrimal(llvm::Function *F);
  /// \p F has changed (an entry-point call in it was lowered): a canonical
  /// primal made from it before (the mutable globals' analysis makes them
  /// for every function a call reaches, before any is lowered) no longer
  /// stands for it. The stale clone stays a template, deleted at the end.
  void forgetCanonical(llvm::Function *F) {
    Canonical.erase(F);
    for (auto It = GradientCanonical.begin(); It != GradientCanonical.end();)
      if (std::get<0>(It->first) == F)
        GradientCanonical.erase(It++);
      else
        ++It;
  }
  /// The canonical clone a gradient of \p F differentiates: versioned so
  /// that loads no later write can change are reloaded (ReloadVersioning.h),
  /// or the shared one if that finds nothing. Pointer parameters in
  /// \p NoAliasArgs (DerivativeSignature::NoAliasArgs) are noalias in it:
  /// such a clone is the gradient's own.
  /// Its time loops are outlined for checkpointing unless \p Nested.
  llvm::Function *gradientPrimal(llvm::Function *F, uint64_t NoAliasArgs,
                                 bool Nested);
  /// The counted loops of a canonical primal (see CountedLoops.h).
  const CountedLoopMap &countedLoops(llvm::Function *Canonical) {
    std::unique_ptr<CountedLoopMap> &Map = Counted[Canonical];
    if (!Map) // Derivatives built after an error may have none.
      Map = std::make_unique<CountedLoopMap>();
    return *Map;
  }
  /// The blocks of a versioned canonical primal's checked copy (empty if
  /// not versioned; see ReloadVersioning.h).
  const llvm::DenseSet<const llvm::BasicBlock *> &
  checkedCopy(llvm::Function *Canonical) {
    auto &Set = CheckedCopies[Canonical];
    if (!Set)
      Set = std::make_unique<llvm::DenseSet<const llvm::BasicBlock *>>();
    return *Set;
  }
  /// The pointer parameters of OpenMP region body \p Body whose every
  /// location one iteration owns, as the compiler shows it
  /// (analysis/IterationOwnership.h): asked per call and per derivative of
  /// the body, computed once. (A reference: builders keep it while nested
  /// builds add entries.)
  const IterationOwnedMemory &iterationOwned(llvm::Function *Body);
  /// The loop iteration bounds of a canonical primal (see TapeReservation.h).
  const IterationBoundMap &iterationBounds(llvm::Function *Canonical) {
    std::unique_ptr<IterationBoundMap> &Map = Bounds[Canonical];
    if (!Map)
      Map = std::make_unique<IterationBoundMap>();
    return *Map;
  }

  /// \p Outlined was cut out of a canonical clone of \p Original (one
  /// iteration, modes/FusedIterations.h): errors in its derivatives name
  /// \p Original, and the driver deletes it with the other templates.
  void adoptOutlined(llvm::Function *Outlined, llvm::Function *Original) {
    Ctx.Diag.setOriginal(Outlined, Original);
    Created.push_back(Outlined);
  }
  /// Functions this cache created; the driver optimizes them at -O1 and up.
  llvm::ArrayRef<llvm::Function *> created() const { return Created; }
  /// \p F is an augmented forward sweep (a copy of the primal plus records).
  bool isAugmented(const llvm::Function *F) const {
    return Augmented.contains(F);
  }
  unsigned synthesizedCount() const { return Synthesized; }
  unsigned reusedCount() const { return Reused; }

private:
  llvm::Function *newFunction(llvm::FunctionType *Ty, const llvm::Twine &Name,
                              llvm::Function *Primal,
                              bool PrimalParamsFirst = true);
  void discard(llvm::Function *F);
  /// Builds the ordinary gradient of \p Sig into \p F; false (an error was
  /// reported, \p F discarded) where it cannot.
  bool buildSweptGradient(const DerivativeSignature &Sig, llvm::Function &F);
  /// Loop facts of canonical clone \p Clone of \p F, and its bookkeeping.
  void registerCanonical(llvm::Function *Clone, llvm::Function *F);

  ADContext &Ctx;
  llvm::StringMap<llvm::Function *> Tangents, Gradients;
  llvm::StringMap<SplitDerivative> Splits;
  llvm::DenseMap<llvm::Function *, llvm::Function *> Canonical;
  std::map<std::tuple<llvm::Function *, uint64_t, bool>, llvm::Function *>
      GradientCanonical;
  llvm::DenseMap<llvm::Function *,
                 std::unique_ptr<llvm::DenseSet<const llvm::BasicBlock *>>>
      CheckedCopies;
  /// Owned through pointers: builders keep references while nested builds
  /// add entries.
  llvm::DenseMap<llvm::Function *, std::unique_ptr<CountedLoopMap>> Counted;
  llvm::DenseMap<llvm::Function *, std::unique_ptr<IterationBoundMap>> Bounds;
  llvm::DenseMap<llvm::Function *, std::unique_ptr<IterationOwnedMemory>>
      IterationOwned;
  llvm::SmallVector<llvm::Function *, 16> Created;
  llvm::SmallPtrSet<const llvm::Function *, 16> Augmented;
  unsigned Synthesized = 0, Reused = 0;
};

/// The types of the synthesized functions (see DerivativeKind).
llvm::FunctionType *tangentFunctionType(const DerivativeSignature &Sig);
llvm::FunctionType *gradientFunctionType(const DerivativeSignature &Sig);
llvm::FunctionType *augmentedFunctionType(const DerivativeSignature &Sig);
llvm::FunctionType *adjointFunctionType(const DerivativeSignature &Sig);
/// The struct of adjoints of Active arguments, or void when there is none.
llvm::Type *adjointResultType(const DerivativeSignature &Sig);

} // namespace ad

#endif
