//===- DerivativeSignature.h - What distinguishes one derivative from another
//===//
//
// A derivative is synthesized once per distinct signature and reused at every
// call site that asks for it: the primal function, the kind of derivative and
// the activity of every argument and of the return value.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_DERIVATIVESIGNATURE_H
#define AD_MODES_DERIVATIVESIGNATURE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include <optional>
#include <string>

namespace llvm {
class CallBase;
} // namespace llvm

namespace ad {

/// How one argument of a differentiated function takes part.
enum class Activity : uint8_t {
  Const,    ///< Not differentiated.
  Shadowed, ///< Pointer: a shadow pointer to memory of the same shape follows.
  Active,   ///< Floating-point value: reverse returns its adjoint, forward
            ///< receives its tangent.
};

/// The derivative functions this plugin synthesizes.
enum class DerivativeKind : uint8_t {
  /// Forward mode: (primals..., tangents of non-const args...) ->
  ///   {primal return, tangent of return} (or the primal return alone).
  Tangent,
  /// Reverse mode in one function, for entry-point calls:
  ///   (primals..., shadows..., [return seed]) -> {adjoints of Active args}.
  Gradient,
  /// Reverse mode split in two functions, for calls inside derivatives:
  ///   augmented: (primals..., shadows..., tape) -> primal return [+ shadow];
  ///   adjoint:   ([return adjoint], tape) -> {adjoints of Active args}.
  Split,
};

struct DerivativeSignature {
  llvm::Function *Primal = nullptr;
  DerivativeKind Kind = DerivativeKind::Gradient;
  llvm::SmallVector<Activity, 8> Args;
  /// The return value is differentiated: a floating-point return gets a seed
  /// (reverse) or a tangent (forward); a pointer return gets a shadow.
  bool ReturnActive = false;
  /// Split only. Bit k: nothing writes the memory pointer argument k points
  /// into between the augmented forward and the adjoint (the caller knows:
  /// a gradient runs both in one call), so the adjoint may load again what
  /// the augmented forward read there instead of taping it. Arguments past
  /// the 64th are never kept.
  uint64_t KeptArgs = 0;
  /// Split only. Bit k: the call writes nothing where pointer argument k
  /// points (through another argument, the caller knows, it would write
  /// elsewhere), so a load from there gives one value in every iteration of
  /// a loop around it whose address does not change. Includes KeptArgs.
  uint64_t UnwrittenArgs = 0;
  /// GPU device code, Gradient only. Bit k: the shadow of pointer argument
  /// k is one value in every thread of the launch (a kernel's parameter, or
  /// computed from parameters and constants) and no other pointer of the
  /// kernel reaches its memory (the parameter is __restrict__), so a
  /// location of it that only one thread's index reaches (x[i], i the
  /// global thread index) belongs to that thread: its adjoint needs no
  /// atomic add (analysis/ThreadSharing.h).
  uint64_t ThreadIndexedArgs = 0;
  /// Gradient only. Bit k: pointer argument k is based on a noalias
  /// (restrict) parameter of the function that calls the entry point, and
  /// no other pointer the call passes (primal or shadow) is based on that
  /// parameter. No other pointer of the call then reaches the memory it
  /// points to, so the gradient's copy of the primal declares the argument
  /// noalias: a load through it that nothing written through it can change
  /// is read again in the reverse sweep instead of taped (a kernel's
  /// __restrict__ input, say).
  uint64_t NoAliasArgs = 0;
  /// Gradient only. Bit k: pointer argument k was marked __ad_dupnoneed.
  /// Where the function reads nothing of that memory itself, the gradient
  /// leaves out the stores the primal makes there (their values are never
  /// used: not by the caller, not by the reverse sweep).
  uint64_t NoNeedArgs = 0;
  /// The derivative runs in every thread of an OpenMP team at once: the
  /// function is a parallel region's body, or is called from one. Adjoints
  /// it adds to memory other threads may also update are added atomically
  /// (analysis/ThreadSharing.h); its callees' derivatives run in the team
  /// too.
  bool InTeam = false;
  /// Split only, an OpenMP region's body: bit k, each thread of the
  /// reverse team adds into a private copy of the shadow of what parameter
  /// k's captured pointer points to (analysis/PrivateShadows.h), which the
  /// team sums into the shadow afterwards: no atomic adds there.
  uint64_t PrivateShadowArgs = 0;
  /// Split only, an OpenMP region's body: bit k, every location parameter
  /// k points to belongs to one iteration of the body's worksharing loop,
  /// as the caller's run-time check showed where the compiler could not
  /// (analysis/IterationOwnership.h): plain adds there.
  uint64_t OwnedArgs = 0;
  /// Split only, an OpenMP region's body: bit k, parameter k is owned (by
  /// analysis or OwnedArgs) and what the body writes through it stays as
  /// written until the adjoint, as the caller's run-time check showed: the
  /// adjoint reads back a value stored there, or loaded from what its
  /// iteration wrote there, when nothing later in the iteration overwrites
  /// it (analysis/IterationOwnership.h, unchangedLaterInIteration).
  uint64_t KeptWriteArgs = 0;
  /// Gradient only: the function is one iteration of a loop nest whose
  /// iterations are independent, outlined by modes/FusedIterations.h. Each
  /// call runs its forward and reverse back to back, so its tape holds one
  /// iteration and stays in cache: it tapes the results of library math
  /// calls (exp, tanh) rather than computing them again in the reverse sweep.
  bool FusedIteration = false;
  /// Gradient only: the entry-point call sits in code that another
  /// derivative copies (a derivative of a derivative). Its time loops are
  /// not checkpointed (primal/CheckpointLoops.h): the schedule's callbacks
  /// are calls through pointers, which the outer derivative cannot follow.
  bool Nested = false;

  /// The cache's key (hashed by it). It names the function by address as
  /// well: unnamed IR functions (@0, @1) must not share derivatives.
  std::string key() const {
    std::string K = std::to_string(reinterpret_cast<uintptr_t>(Primal));
    K += '|';
    K += Primal->getName().str();
    K += '|';
    K += char('0' + unsigned(Kind));
    K += '|';
    for (Activity A : Args)
      K += "csa"[unsigned(A)];
    K += ReturnActive ? "|r" : "|-";
    if (ThreadIndexedArgs) {
      K += "|t";
      K += std::to_string(ThreadIndexedArgs);
    }
    if (NoNeedArgs) {
      K += "|x";
      K += std::to_string(NoNeedArgs);
    }
    if (NoAliasArgs) {
      K += "|n";
      K += std::to_string(NoAliasArgs);
    }
    if (InTeam)
      K += "|team";
    if (FusedIteration)
      K += "|fused";
    if (Nested)
      K += "|nested";
    if (PrivateShadowArgs) {
      K += "|p";
      K += std::to_string(PrivateShadowArgs);
    }
    if (OwnedArgs) {
      K += "|o";
      K += std::to_string(OwnedArgs);
    }
    if (KeptWriteArgs) {
      K += "|w";
      K += std::to_string(KeptWriteArgs);
    }
    if (KeptArgs || UnwrittenArgs) {
      K += "|k";
      K += std::to_string(KeptArgs);
      K += "|u";
      K += std::to_string(UnwrittenArgs);
    }
    return K;
  }

  unsigned countArgs(Activity A) const {
    unsigned N = 0;
    for (Activity X : Args)
      N += X == A;
    return N;
  }
};

} // namespace ad

#endif
