//===- SelectReductions.h - Running extremes read back after their loop ---===//
//
// A loop that keeps the largest (or smallest, or any chosen) element,
//
//     m = -INFINITY;
//     for (i = 0; i < n; i++) if (x[i] > m) m = x[i];
//
// is a chain of selects, m' = c ? x[i] : m, one per iteration. As it
// stands, its reverse sweep needs c in every iteration (a byte per iteration
// on the tape) to route m's adjoint back down the chain, and forward mode
// selects a tangent per iteration. Yet m's final value is just the element
// loaded in the last iteration that chose one, or m's start value if none
// did. The canonical primal therefore also keeps that element's address in
// the loop (a pointer select beside the value select, null until an element
// is chosen) and, after the loop, loads it again; every use of m after the
// loop reads that load. The chain itself then reaches no output, so it gets
// no derivative code and no tape: m's derivative is that of one load, an
// adjoint added once to one shadow element.
//
// The element may also be computed in the loop and stored there, each
// iteration at a new address (a softmax's scores): it is read back from
// where it was stored.
//
// The reload reads what the loop read (or stored), so no instruction of the
// loop may write the memory it loads from (alias analysis decides; for a
// stored element, no instruction but that store, whose address moves on). m may be used
// in the loop only by the select and by comparisons (which carry no
// derivative); the value it is replaced by is exactly the value the chain
// computes, bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_SELECTREDUCTIONS_H
#define AD_MODES_SELECTREDUCTIONS_H

#include "llvm/IR/PassManager.h"

namespace ad {

/// Rewrites the select reductions of \p F (a canonical primal in
/// loop-simplify form) as described above; returns how many it rewrote.
unsigned readBackSelectReductions(llvm::Function &F,
                                  llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
