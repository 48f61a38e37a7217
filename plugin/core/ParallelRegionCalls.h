//===- ParallelRegionCalls.h - A parallel region seen as a call -*- C++ -*-===//
//
// clang outlines the body of `#pragma omp parallel` into a function and has
// libomp's __kmpc_fork_call run it in every thread of a team:
//   __kmpc_fork_call(@loc, n, @f.omp_outlined, a1, ..., an)
// calls f.omp_outlined(&gtid, &btid, a1, ..., an) in each thread. To the
// analyses and builders that is a call of a defined function, and the
// canonical primal (primal/ParallelRegions.h) writes it as one:
//   call @f.omp_outlined(ptr %tid, ptr %tid, a1, ..., an), !ad.parallel !{@loc}
// so the region's body gets derivatives like any callee's (a tangent, an
// augmented forward sweep and an adjoint), and the builders' calls of those
// carry the mark on, with the derivative's role. Once every derivative is
// built, driver/ForkRegions.h forks a team again for each marked call.
//
//===----------------------------------------------------------------------===//
#ifndef AD_CORE_PARALLELREGIONCALLS_H
#define AD_CORE_PARALLELREGIONCALLS_H

#include "llvm/IR/InstrTypes.h"

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

/// What a marked call runs in every thread of the team.
enum class RegionRole : uint8_t {
  Primal,    ///< The region's own body.
  Tangent,   ///< Its tangent (forward mode).
  Augmented, ///< Its augmented forward sweep, with a tape per thread.
  Adjoint,   ///< Its adjoint, each thread with the tape its forward filled.
};

/// The metadata kind of the mark.
constexpr const char *ParallelRegionMark = "ad.parallel";

/// Whether \p Call stands for a parallel region.
bool isParallelRegionCall(const llvm::CallBase &Call);
/// Whether \p F calls a parallel region.
bool hasParallelRegionCall(const llvm::Function &F);
/// Marks \p Call as the region \p Loc (libomp's source location) runs.
void markParallelRegionCall(llvm::CallBase &Call, llvm::Value *Loc,
                            RegionRole Role);
/// Marks \p New, a builder's call of a derivative of \p Region's body, as
/// the same region running that derivative; nothing when \p Region is not
/// a region.
void carryParallelRegionMark(llvm::CallBase &New, const llvm::CallBase &Region,
                             RegionRole Role);
/// The same for an augmented forward sweep or adjoint of \p Body, whose
/// arguments in \p Shadowed have shadows (bit k: parameter k), of which
/// those in \p Private are kept per thread (analysis/PrivateShadows.h).
void carryParallelRegionMark(llvm::CallBase &New, const llvm::CallBase &Region,
                             RegionRole Role, llvm::Function &Body,
                             uint64_t Shadowed, uint64_t Private);
/// What the second form recorded: the body, and the two masks; null and
/// zeros for the first.
struct RegionShadows {
  llvm::Function *Body = nullptr;
  uint64_t Shadowed = 0, Private = 0;
};
RegionShadows parallelRegionShadows(const llvm::CallBase &Call);
/// The source location and role of a marked call.
llvm::Value *parallelRegionLocation(const llvm::CallBase &Call);
RegionRole parallelRegionRole(const llvm::CallBase &Call);

/// Parameters the outlined body gets before the captured variables: the
/// thread's global and bound thread ids, as pointers.
constexpr unsigned RegionThreadIdParams = 2;

} // namespace ad

#endif
