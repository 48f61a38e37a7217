//===- PrimalMarks.h - What the canonical primal's metadata vouches for ---===//
//
// The rewrites of the canonical primal (primal/) decide facts the builders
// act on, and attach them to its instructions as metadata, which the
// clones of its blocks carry along: a load or store whose value nothing
// overwrites before the reverse sweep (!ad.unchanged, ReloadVersioning.h), a
// load no write of its own loop changes (!ad.unchanged.in.loop), what a
// parallel region reads that nothing overwrites (!ad.unchanged.args) or that
// each iteration owns (!ad.owned.args), a free a
// gradient runs in its reverse sweep and the allocation it frees there
// (!ad.deferred.free, !ad.freed.in.reverse, DeferredFrees.h). They are read
// here, below the layers that decide. All of them vouch for a gradient (both
// sweeps in one function): a gradient that is differentiated again is
// ordinary code, so createCanonicalPrimal forgets them.
//
//===----------------------------------------------------------------------===//
#ifndef AD_CORE_PRIMALMARKS_H
#define AD_CORE_PRIMALMARKS_H

#include <cstdint>

namespace llvm {
class CallBase;
class Function;
class Instruction;
} // namespace llvm

namespace ad {

/// \p I (a load or store) sits where a run-time check has shown that
/// nothing its function writes after it changes the location it accessed.
bool isUnchangedAfterAccess(const llvm::Instruction &I);
void markUnchangedAfterAccess(llvm::Instruction &I);

/// \p I (a load) sits where a run-time check has shown that no write inside
/// its innermost loop changes the location it reads: its value is the same
/// in every iteration of that loop (it may change between entries).
bool isUnchangedInItsLoop(const llvm::Instruction &I);
void markUnchangedInItsLoop(llvm::Instruction &I);

/// Bit k: what parallel region call \p Call reads through its argument k
/// (and never writes), a run-time check has shown that nothing the region or
/// its function writes after the call changes (ReloadVersioning.h).
uint64_t unchangedArguments(const llvm::CallBase &Call);
void markUnchangedArguments(llvm::CallBase &Call, uint64_t Mask);
/// Bit k: a run-time check has shown that every location argument k of
/// parallel region call \p Call points to belongs to one iteration of the
/// region's worksharing loop (analysis/IterationOwnership.h).
uint64_t ownedArguments(const llvm::CallBase &Call);
void markOwnedArguments(llvm::CallBase &Call, uint64_t Mask);
/// Bit k: what parallel region call \p Call writes through its argument k,
/// a run-time check has shown that nothing its function writes after the
/// call changes, and that the region's writes through its other arguments
/// never meet it (ReloadVersioning.h).
uint64_t keptWrittenArguments(const llvm::CallBase &Call);
void markKeptWrittenArguments(llvm::CallBase &Call, uint64_t Mask);
void clearKeptWrittenArguments(llvm::CallBase &Call);
/// \p I is a free a gradient runs in its reverse sweep instead.
bool isDeferredFree(const llvm::Instruction &I);

/// The function a gradient's reverse sweep calls on allocation \p Alloc when
/// it reaches it (its deferred free), or nullptr.
llvm::Function *freedInReverse(const llvm::CallBase &Alloc);

/// Marks \p Free deferred, and \p Alloc freed by \p FreeFn in the reverse
/// sweep.
void markDeferredFree(llvm::CallBase &Free, llvm::CallBase &Alloc,
                      llvm::Function &FreeFn);

/// \p Call is the last resort of an indirect call split into direct calls
/// of the functions the module defines (primal/IndirectCallDispatch.h):
/// only a pointer to a function defined elsewhere reaches it. Unlike the
/// marks above, this one holds in every clone and derivative of the primal.
bool isUnresolvedCallee(const llvm::CallBase &Call);
void markUnresolvedCallee(llvm::CallBase &Call);

/// Drops every mark of \p F that vouches for a gradient.
void forgetPrimalMarks(llvm::Function &F);

} // namespace ad

#endif
