//===- ForkRegions.h - Parallel regions forked again ------------*- C++ -*-===//
//
// The derivatives of a function that opens OpenMP parallel regions call the
// regions' bodies (and their derivatives) directly, marked as regions
// (core/ParallelRegionCalls.h). Once every derivative is built, each marked
// call becomes a __kmpc_fork_call again: the derivative of a parallel
// region is a parallel region, with the primal's number of threads.
//
// The fork passes the call's arguments packed in one stack record to a
// small function each thread runs (the team's entry), which unpacks them
// and calls the body's derivative with the thread's own ids. Reverse mode
// gives every thread a tape of its own: the augmented forward sweep's fork
// allocates a table of tapes, one per thread of the team, indexed by
// omp_get_thread_num(), and pushes the table's address on the caller's
// tape; the adjoint's fork pops it, asks libomp for the same number of
// threads, and thread t runs its reverse sweep on the tape thread t filled,
// so it retraces exactly the iterations its forward sweep ran (whatever the
// schedule: the loop bounds libomp handed out are on the tape).
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_FORKREGIONS_H
#define AD_DRIVER_FORKREGIONS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

class DiagnosticReporter;
class RuntimeFunctions;

/// Forks the marked calls in \p Functions; appends the teams' entry
/// functions it creates to \p Functions.
void forkParallelRegions(llvm::SmallVectorImpl<llvm::Function *> &Functions,
                         RuntimeFunctions &Runtime, DiagnosticReporter &Diag);

} // namespace ad

#endif
