//===- StoreForwarding.h - Loads recomputed from what an earlier loop stored
//===//
//
// ADBench's GMM computes, per point and component, xc[j] = x[j] - mu[j]
// into a scratch buffer in one loop and reads xc[j] in the next ones
// (Q xc's diagonal, its triangle). The next component overwrites xc, so a
// gradient cannot read those loads back in its reverse sweep and tapes every
// one of them; yet what they load is a subtraction of two values that
// nothing ever overwrites.
//
// A gradient's canonical primal therefore replaces such a load by the stored
// expression, evaluated again where the load was: with the load's loop's
// induction variable in place of the storing loop's. The reverse sweep then
// recomputes it from memory it can read again, as it does any cheap
// arithmetic on reloadable loads, and tapes nothing for it.
//
// A load L in loop B is replaced by the value store S in loop A stored when
//   - A and B are different loops with the same parent (or none), A's header
//     dominates L, and the CFG is reducible: the last run of A before L is
//     in the same iteration of the parent;
//   - S's and L's addresses are {P,+,s}<A> and {P,+,s}<B> (ScalarEvolution),
//     the same type, |s| at least its size, S runs in every iteration of A
//     (A's one exiting block is its latch, which S dominates) and B runs no
//     more iterations than A: iteration k of B reads what iteration k of A
//     wrote, and no other iteration of A wrote there;
//   - no other write of the parent loop (of the function, outside loops)
//     may write L's memory (alias analysis, MemoryEffects.h);
//   - the stored expression is cheap (arithmetic, casts, addresses, at most
//     MaxCloned instructions) and its leaves are constants, arguments,
//     values computed outside A that dominate L, induction variables of A
//     (replaced by B's with the same start and step), and loads of memory
//     that no write of the function may change (deferred frees aside: only
//     gradients are rewritten).
// Anything else keeps its load, and the reverse sweep tapes it as before.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_STOREFORWARDING_H
#define AD_PRIMAL_STOREFORWARDING_H

#include "llvm/IR/PassManager.h"

namespace ad {

/// Replaces the loads of \p F (a gradient's canonical primal, in
/// loop-simplify form) that the rules above allow by the stored
/// expressions; returns how many it replaced.
unsigned forwardStoredValues(llvm::Function &F,
                             llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
