//===- UnsupportedConstructs.cpp - What neither mode can differentiate
//-----===//
#include "modes/UnsupportedConstructs.h"
#include "analysis/ThreadSharing.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace ad {

static bool isScalable(Type *T) {
  if (isa<ScalableVectorType>(T))
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), isScalable);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return isScalable(AT->getElementType());
  return false;
}

/// An instruction whose result, operands or memory type is a scalable vector.
static const Instruction *firstScalable(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isScalable(I.getType()))
        return &I;
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && isScalable(AI->getAllocatedType()))
        return &I;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(&I);
          GEP && isScalable(GEP->getSourceElementType()))
        return &I;
      for (const Use &U : I.operands())
        if (isScalable(U->getType()))
          return &I;
    }
  return nullptr;
}

/// A call with derivatives in or out whose callee is an alias that may be
/// replaced at link time (calledFunction does not look through it), and
/// that alias.
static std::pair<const CallBase *, const GlobalAlias *>
activeCallOfInterposableAlias(const ActivityAnalysis &AA, const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || Call->isInlineAsm())
        continue;
      const GlobalAlias *GA = interposableAlias(Call->getCalledOperand());
      if (!GA)
        continue;
      bool Active = AA.isVaried(Call) || AA.hasShadow(Call);
      for (const Use &U : Call->args())
        Active |= AA.isVaried(U) || AA.hasShadow(U);
      if (Active)
        return {Call, GA};
    }
  return {nullptr, nullptr};
}

/// A fence that orders this thread's memory accesses for other blocks or
/// the whole system (__threadfence, __threadfence_system), or a barrier
/// beyond the block (a cluster's; a grid-wide sync is built from these):
/// the protocols they serve (the last block to finish reads every block's
/// partial result, say) move data between blocks in an order the reverse
/// sweep cannot mirror.
static const Instruction *firstCrossBlockSynchronization(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (auto *Fence = dyn_cast<FenceInst>(&I)) {
        StringRef Scope;
        SmallVector<StringRef, 8> Names;
        F.getContext().getSyncScopeNames(Names);
        if (Fence->getSyncScopeID() < Names.size())
          Scope = Names[Fence->getSyncScopeID()];
        if (Scope != "block" && Scope != "cta" && Scope != "wavefront" &&
            Scope != "workgroup" && Scope != "singlethread")
          return &I;
        continue;
      }
      auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      switch (Callee->getIntrinsicID()) {
      case Intrinsic::nvvm_membar_gl:
      case Intrinsic::nvvm_membar_sys:
      case Intrinsic::nvvm_barrier_cluster_arrive:
      case Intrinsic::nvvm_barrier_cluster_arrive_aligned:
      case Intrinsic::nvvm_barrier_cluster_arrive_relaxed:
      case Intrinsic::nvvm_barrier_cluster_arrive_relaxed_aligned:
      case Intrinsic::nvvm_barrier_cluster_wait:
      case Intrinsic::nvvm_barrier_cluster_wait_aligned:
        return &I;
      default:
        break;
      }
    }
  return nullptr;
}

/// OpenMP constructs whose work libomp runs where and when it decides, out
/// of the code's sight: a task's body may run in any thread, at any later
/// point of the region, so no sweep can retrace it.
static const CallBase *firstOpenMPTask(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction()) {
          StringRef Name = Callee->getName();
          if (Name.starts_with("__kmpc_omp_task") ||
              Name.starts_with("__kmpc_taskloop") ||
              Name.starts_with("__kmpc_taskred") ||
              Name.starts_with("__kmpc_taskgroup") ||
              Name.starts_with("__kmpc_doacross") ||
              Name == "__kmpc_fork_teams" || Name == "__kmpc_fork_call" ||
              Name == "__kmpc_fork_call_if" ||
              (Name.starts_with("omp_set_") && Name.ends_with("lock")) ||
              (Name.starts_with("omp_test_") && Name.ends_with("lock")))
            return Call;
        }
  return nullptr;
}

bool checkSupportedConstructs(ADContext &Ctx, const ActivityAnalysis &AA,
                              Function &F) {
  if (const CallBase *Call = firstOpenMPTask(F)) {
    StringRef Name = Call->getCalledFunction()->getName();
    bool Task = !Name.starts_with("__kmpc_fork") &&
                !Name.starts_with("__kmpc_doacross") &&
                !Name.starts_with("omp_");
    if (Name.starts_with("omp_")) {
      // A lock's sections need the reverse order of their runs, which the
      // plugin keeps for critical sections (tickets under a named lock) but
      // not for locks the program passes around.
      Ctx.Diag.error(Call,
                     "OpenMP locks (omp_set_lock and the like) are not "
                     "differentiated: the reverse sweep would update the "
                     "adjoints they guard without them",
                     "use a critical section (#pragma omp critical) or an "
                     "atomic update instead");
      return false;
    }
    Ctx.Diag.error(Call,
                   Task ? Twine("OpenMP tasks (task, taskloop, taskgroup) are "
                                "not differentiated: libomp runs a task in "
                                "any thread at any later point, which no "
                                "sweep can retrace")
                        : Twine("this OpenMP construct ('") + Name +
                              "': teams, ordered depend, or a parallel "
                              "region whose body is not known) is not "
                              "differentiated",
                   "use a parallel for, sections, or a parallel region with "
                   "its own worksharing loops");
    return false;
  }
  if (isParallelDeviceCode(*F.getParent()))
    if (const Instruction *I = firstCrossBlockSynchronization(F)) {
      Ctx.Diag.error(I,
                     "a memory fence or barrier beyond the thread block "
                     "(__threadfence, a cluster or grid-wide sync) in device "
                     "code: the protocol it serves passes data between blocks "
                     "in an order the reverse sweep cannot mirror",
                     "split the computation into separate kernels, or keep "
                     "the fence outside the differentiated function");
      return false;
    }
  if (auto [Call, GA] = activeCallOfInterposableAlias(AA, F); Call) {
    Ctx.Diag.error(Call,
                   "call to '" + demangle(GA->getName()) +
                       "', an alias that may be replaced at link time "
                       "(weak), so the function it names need not be the "
                       "one called",
                   "call the function the alias names, or make the alias "
                   "strong");
    return false;
  }
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I);
          CAS && AA.hasShadow(CAS->getPointerOperand())) {
        Ctx.Diag.error(CAS,
                       "compare-and-swap on differentiated memory (an atomic "
                       "update written as a CAS loop) has no derivative: "
                       "the value it stores is not a function of the loop",
                       isParallelDeviceCode(*F.getParent())
                           ? "use atomicAdd (double atomicAdd is native on "
                             "sm_60 and later)"
                           : "use an atomic += or -= (#pragma omp atomic), a "
                             "reduction, or a critical section");
        return false;
      }
  if (const Instruction *I = AA.fpBitsMisuse()) {
    Ctx.Diag.error(I,
                   Twine("the bits of a differentiated floating-point value "
                         "are computed on as an integer ('") +
                       I->getOpcodeName() + "')",
                   "use fabs, copysign and the like instead of bit "
                   "manipulation");
    return false;
  }
  if (const Instruction *I = AA.pointerRebuiltFromInteger()) {
    Ctx.Diag.error(I,
                   "a pointer to differentiated memory is converted to an "
                   "integer and back, which loses its shadow",
                   "index the pointer (p + i, &p[i]) instead of computing "
                   "addresses with integers");
    return false;
  }
  if (const Instruction *I = AA.ambiguousIntegerCopy()) {
    Ctx.Diag.error(I,
                   "cannot tell whether this integer copy moves "
                   "floating-point data (an optimized copy of a double looks "
                   "the same as one of an integer)",
                   "copy through typed pointers, and keep strict aliasing "
                   "(the default) so that accesses carry their type");
    return false;
  }
  if (const Instruction *I = AA.partialFloatCopy()) {
    Ctx.Diag.error(I,
                   "this copies part of a floating-point value as an "
                   "integer (a byte-wise copy of a double, say); its "
                   "derivative cannot be split into bytes",
                   "copy whole values: assign, or use memcpy");
    return false;
  }
  if (const Instruction *I = AA.floatsInInteger()) {
    Ctx.Diag.error(I,
                   "floating-point data is loaded as part of a wider "
                   "integer (a small struct passed by value as one i64, say) "
                   "and computed on or passed along as such; its derivative "
                   "cannot follow",
                   "pass such structs by pointer");
    return false;
  }
  if (const Instruction *I = firstScalable(F)) {
    Ctx.Diag.error(I,
                   "scalable vectors (sizes known only at run time) are not "
                   "supported",
                   "compile for a target without scalable vectors (SVE, RVV) "
                   "or with -fno-vectorize");
    return false;
  }
  return true;
}

bool checkReducibleControlFlow(ADContext &Ctx, Function &F,
                               const LoopInfo &LI) {
  // A derivative the plugin made (differentiated again) has irreducible
  // regions by construction (a reverse block entered from the reverse of
  // each successor); its values come from its own tape, not from the
  // dominance reasoning that irreducible user loops defeat, and nested
  // derivatives through them are checked numerically (test/Integration/n_*).
  if (Ctx.Diag.isDerivativeCode(F))
    return true;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  if (!containsIrreducibleCFG<const BasicBlock *>(RPOT, LI))
    return true;
  Ctx.Diag.error(F,
                 "irreducible control flow (a loop entered at more than one "
                 "place, as with a goto into its body) is not supported in "
                 "reverse mode",
                 "give the loop a single entry; forward mode (__ad_fwddiff) "
                 "handles it");
  return false;
}

} // namespace ad
