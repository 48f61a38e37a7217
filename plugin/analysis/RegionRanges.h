//===- RegionRanges.h - What a region's accesses span over all threads ---===//
//
// A parallel region's body addresses memory through the pointers it
// captured, at offsets affine in its loops. Which iterations a thread runs
// libomp decides at run time, but over the whole team they are the
// worksharing loop's iterations, whose bounds the region hands to libomp.
// So the offsets an access takes over every thread of the region lie in a
// range that values known at the fork bound: the region's parameters (and
// what it loads through those that point at variables it only reads).
//
// The private shadows (PrivateShadows.h) bound what each thread may add
// into; the caller's run-time checks (RegionFootprint.h, used by
// primal/ReloadVersioning.cpp) bound what a region call reads and writes.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_REGIONRANGES_H
#define AD_ANALYSIS_REGIONRANGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace llvm {
class Argument;
class BasicBlock;
class CallBase;
class IRBuilderBase;
class Loop;
class LoopInfo;
class ScalarEvolution;
class SCEV;
class Value;
} // namespace llvm

namespace ad {

/// \p Arg is used by loads from it only: what it points at holds one value
/// all along (a captured variable the region only reads).
bool isOnlyLoadedFrom(const llvm::Argument &Arg);

/// A value the caller of the region knows before forking: a parameter, a
/// load from a parameter that isOnlyLoadedFrom, integer arithmetic on those.
bool isRegionEntryValue(const llvm::Value *V);

/// The least and greatest value of an offset over every iteration of the
/// region's loops, over all threads, as expressions of entry values.
struct OffsetRange {
  const llvm::SCEV *Lo, *Hi;
};
/// The range of \p Offset, which an instruction in loop \p Inner computes;
/// nullopt when the loops' bounds or the offset's shape are beyond this.
std::optional<OffsetRange> regionOffsetRange(const llvm::SCEV *Offset,
                                             llvm::ScalarEvolution &SE,
                                             const llvm::Loop *Inner);

/// \p S with each zext(L - S - 1) (the trip count less one of a loop from
/// S to L, or the length of the memset it became) where \p BB runs only if
/// S < L as sext(L) - sext(S) - 1, at least -1: the same where BB runs, and
/// no more than an empty loop's where it does not, whereas the zero
/// extension is huge there (for (i = V; i < Vp; i++) without padding,
/// V == Vp), and a bound must hold wherever the region is called.
const llvm::SCEV *tripCountsWhereRuns(const llvm::SCEV *S,
                                      const llvm::BasicBlock &BB,
                                      llvm::ScalarEvolution &SE);

/// The index of \p L, if it is a worksharing loop (its index starts at the
/// lower bound libomp hands the thread, and counts up by one).
const llvm::SCEV *worksharingIndex(const llvm::Loop &L,
                                   llvm::ScalarEvolution &SE);

/// A / B where \p A is a product with B's factors among its own (the
/// product of the rest); nullptr otherwise.
const llvm::SCEV *exactQuotient(const llvm::SCEV *A, const llvm::SCEV *B,
                                llvm::ScalarEvolution &SE);

/// Emits \p S (sums, products, extensions, divisions, min and max) at
/// \p B, its unknowns as \p Unknown gives them.
llvm::Value *
emitExpression(const llvm::SCEV *S, llvm::IRBuilderBase &B,
               llvm::function_ref<llvm::Value *(llvm::Value *)> Unknown);

/// Emits \p Bound (an end of a regionOffsetRange) at \p B, in the caller of
/// the region: \p Args are the region call's arguments, by which the body's
/// parameters and its entry loads through them are rebuilt.
llvm::Value *emitRegionBound(const llvm::SCEV *Bound, llvm::IRBuilderBase &B,
                             llvm::ArrayRef<llvm::Value *> Args);

/// \p Bound as an expression of the caller's scalar evolution \p CallerSE,
/// at region call \p Call (what the region computes from its parameters is
/// computed before the call, from the arguments, outside the loops of \p LI
/// that do not change it); nullptr if it cannot be.
const llvm::SCEV *regionBoundInCaller(const llvm::SCEV *Bound,
                                      llvm::ScalarEvolution &CallerSE,
                                      llvm::CallBase &Call,
                                      const llvm::LoopInfo &LI);

} // namespace ad

#endif
