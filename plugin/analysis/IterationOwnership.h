//===- IterationOwnership.h - Memory each worksharing iteration owns -----===//
//
// In the reverse sweep of an OpenMP region every thread adds adjoints into
// the shadows of what its iterations read. Where two iterations may touch
// one location, the adds are atomic (or go to a private copy); where every
// location belongs to one iteration (a matrix product's input row, a
// softmax's output row, an attention head's row of scores), a plain add is
// enough: libomp runs each iteration in one thread, in both sweeps.
//
// A pointer parameter qualifies when every access through it lies in the
// region's one worksharing loop, at an offset that is a mixed-radix number
// of the loop's index: the index's digits, as a collapse(n) loop takes it
// apart (q1 = iv / D1, q2 = (iv - q1 D1) / D2, ..., the last digit the
// remainder), each times a stride, plus what the loops inside add (R). If,
// in increasing order, each stride is at least the span of everything below
// it (R's, then R's and the smaller digits'), two different iterations
// never meet. The strides and spans are compared by scalar evolution, under
// the loops' guards (the extents positive), at compile time; what it cannot
// compare, a gradient may check when it calls the region.
//
// One kind of access may stay unplaced: a load at an offset no iteration
// can be told to own (a softmax row read at a target index the program
// loads, probs[bt][targets[bt]]), when every other access of the parameter
// lands on bytes its iteration writes, in the same block. Should the load
// read a location another iteration owns, that iteration writes it, and the
// program's two threads would race on it: so it does not, and the load's
// adjoint alone is added atomically, while the owned accesses keep their
// plain adds (a location no iteration writes gets atomic adds only).
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_ITERATIONOWNERSHIP_H
#define AD_ANALYSIS_ITERATIONOWNERSHIP_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <utility>

namespace llvm {
class AAResults;
class Function;
class Instruction;
class LoopInfo;
class ScalarEvolution;
class SCEV;
class Value;
} // namespace llvm

namespace ad {

/// A parameter owned where these comparisons, A <= B over the body's
/// parameters, hold: what the compiler cannot tell (a head size times the
/// number of heads at most the row, C / NH * NH <= C) the caller may check
/// when the region is called (primal/ReloadVersioning.cpp).
struct OwnershipCheck {
  unsigned Arg;
  llvm::SmallVector<std::pair<const llvm::SCEV *, const llvm::SCEV *>, 2>
      AtMost;
};

/// What the iterations of a region body's worksharing loop own.
struct IterationOwnedMemory {
  /// Bit k: parameter k is a pointer through which distinct iterations
  /// access disjoint bytes (see above).
  uint64_t Params = 0;
  /// The pointer operands of the unplaced loads through those parameters,
  /// and through those OwnershipChecks name: their adjoints stay atomic.
  llvm::SmallPtrSet<const llvm::Value *, 4> Unplaced;
};

/// The parameters of OpenMP region body \p Body each iteration owns. With
/// \p Checks, the parameters that are where some comparisons hold too.
IterationOwnedMemory iterationOwnedParameters(
    llvm::Function &Body, llvm::ScalarEvolution &SE, llvm::LoopInfo &LI,
    llvm::SmallVectorImpl<OwnershipCheck> *Checks = nullptr);

/// Whether nothing the rest of its iteration of the worksharing loop runs
/// after \p X (a load or store through a parameter of an OpenMP region's
/// body that each iteration owns) writes the bytes X accessed: a write
/// through the same parameter at offsets apart from X's in every iteration
/// (a row's zero padding after its softmax), X itself again in a later pass
/// of its loop (at the next address), and writes through other parameters,
/// which the caller checks never meet what the region wrote through X's
/// (ReloadVersioning.h). Other iterations own other bytes. The adjoint may
/// then read X's value back, where the caller keeps the region's writes
/// (DerivativeSignature::KeptWriteArgs).
bool unchangedLaterInIteration(llvm::Instruction &X, llvm::ScalarEvolution &SE,
                               llvm::LoopInfo &LI, llvm::AAResults &AAR);

} // namespace ad

#endif
