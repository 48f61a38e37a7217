//===- ThreadSharing.h - Which memory other GPU threads may also update
//-----===//
//
// In device code every thread runs its own derivative, and the adjoint of a
// load is added to the shadow of the loaded location. When several threads
// read one location (a weight, a scalar every thread reads, a neighbour's
// cell in a stencil) their adds race, and a plain load-add-store loses some
// (EnzymeAD/Enzyme#2199). An atomic add never does, at some cost; a location
// only its own thread can reach needs none. This analysis says which is
// which, for one pointer of the primal.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_THREADSHARING_H
#define AD_ANALYSIS_THREADSHARING_H

#include "core/IRHelpers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <cstdint>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace ad {

/// The pointer arguments of a device function whose every access is at the
/// global thread index (p[blockIdx.x * blockDim.x + threadIdx.x]), among
/// those the caller vouches for (DerivativeSignature::ThreadIndexedArgs):
/// then each location of their shadows belongs to one thread.
class ThreadOwnedArguments {
public:
  ThreadOwnedArguments() = default;
  /// \p InTeam: F runs in every thread of an OpenMP team
  /// (DerivativeSignature::InTeam). \p Private: bit k, F's thread adds into
  /// a private copy of the shadow of what parameter k's captured pointer
  /// points to (DerivativeSignature::PrivateShadowArgs), which the loads
  /// through it own. \p IterationOwned: bit k, every location parameter k
  /// points to belongs to one iteration of F's worksharing loop
  /// (IterationOwnership.h), so to the one thread that runs it, but for
  /// the loads through \p Unplaced pointers.
  ThreadOwnedArguments(
      const llvm::Function &F, uint64_t Vouched, bool InTeam = false,
      uint64_t Private = 0, uint64_t IterationOwned = 0,
      const llvm::SmallPtrSetImpl<const llvm::Value *> *Unplaced = nullptr);
  /// Whether \p Ptr is an access of an owned argument at the thread index.
  bool owns(const llvm::Value *Ptr) const;
  /// Whether other threads run the same code at the same time (an OpenMP
  /// team; on a GPU every thread does).
  bool inTeam() const { return InTeam; }

private:
  llvm::SmallPtrSet<const llvm::Value *, 8> OwnedAccesses;
  bool InTeam = false;
};

/// Whether the shadow of the memory \p Ptr points to may be updated by
/// other threads too, so that adjoints must be added to it atomically:
/// false on a host outside OpenMP teams, for memory the thread allocated itself
/// (a local variable, or the heap block of its own malloc), and for locations
/// \p Owned says belong to the thread.
bool shadowMayBeShared(const llvm::Module &M, const llvm::Value *Ptr,
                       const ThreadOwnedArguments &Owned = {});

/// Whether \p V has one value in every thread of a launch and is based on
/// a __restrict__ parameter of the kernel \p V is computed in.
bool isLaunchUniformRestrictPointer(const llvm::Value *V);

/// Whether \p GV is GPU memory one block shares (CUDA's __shared__).
bool isBlockShared(const llvm::GlobalVariable &GV);

/// Whether \p F, or a function it calls, synchronizes its block
/// (__syncthreads): then every thread of the block calls it.
bool callsBlockBarrier(const llvm::Function &F);

} // namespace ad

#endif // AD_ANALYSIS_THREADSHARING_H
