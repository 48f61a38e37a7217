//===- OverwriteConditions.h - What keeps a write off an earlier access --===//
//
// A gradient reads back what a load (or store) accessed if nothing written
// after it changes the location (primal/ReloadVersioning.h). For one access
// and one write that may follow it, each described as base + offset over
// their loop nests, this says what rules the overwrite out, as comparisons
// of values known before the loops (a disjunction of conjunctions that must
// hold, per level of their common loops):
//
//  A. the intervals the two touch over the whole run are disjoint;
//  B. at each level of their common loops, both advance by the same stride
//     per iteration, and the write's interval in any later iteration lies
//     beyond the access's in this one (within the innermost, the write
//     precedes the access or misses it);
//  C. both are at one affine function X of the common loops, plus what the
//     loops inside add, and X's strides form a mixed radix that keeps any
//     two common iterations apart.
//
// Comparisons scalar evolution decides are settled here; the rest are left
// for the caller to check at run time.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_OVERWRITECONDITIONS_H
#define AD_ANALYSIS_OVERWRITECONDITIONS_H

#include "analysis/AccessIntervals.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <set>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Instruction;
class Loop;
class LoopInfo;
} // namespace llvm

namespace ad {

/// A load or write: Base + Offset, Size bytes, in loop L. A parallel
/// region's call stands for what it reads, or writes, through one of its
/// arguments over all its threads (RegionFootprint.h).
struct Access {
  llvm::Instruction *I;
  const llvm::SCEV *Base, *Offset, *Size;
  llvm::Loop *L;
  /// Under which Offset and Size are what the access uses (WidenExtensions).
  Conjunction Assume;
};

/// Load, store or memory operation \p I as an access: its base object, its
/// byte offset and size in 64 bits (narrow index arithmetic widened under
/// assumptions, WidenExtensions); nullopt for what ScalarEvolution cannot
/// describe so.
std::optional<Access> accessOfInstruction(llvm::Instruction *I,
                                          llvm::ScalarEvolution &SE,
                                          const llvm::LoopInfo &LI,
                                          IntervalFinder &Intervals);

/// The outermost loop around \p L that is inside \p Around (Around null:
/// the outermost of all).
const llvm::Loop *outermostInside(const llvm::Loop *L,
                                  const llvm::Loop *Around);

class OverwriteConditions {
public:
  OverwriteConditions(llvm::ScalarEvolution &SE, llvm::LoopInfo &LI,
                      llvm::DominatorTree &DT)
      : SE(SE), LI(LI), DT(DT), Intervals(SE) {}

  /// What excludes \p W from changing what \p Ld touched (see above), as
  /// conditions that must all hold; nullopt if nothing here can. \p Ld and
  /// \p W the same region call: its threads' writes may come before or
  /// after any of their reads, so only A will do.
  std::optional<llvm::SmallVector<Condition, 2>> pairCondition(const Access &Ld,
                                                               const Access &W);
  /// Criterion A for \p Ld and \p W, as alternatives added to \p C.
  void addWholeRunDisjoint(const Access &Ld, const Access &W, Condition &C);
  /// A comparison that, when it holds, keeps \p W from running at all.
  std::optional<Compare> neverRuns(const Access &W);
  /// Adds \p C, or else the write never running (\p Skipped), to the
  /// conditions that must all hold; false when nothing in it can hold.
  bool addAlternatives(Condition C, std::optional<Compare> Skipped,
                       llvm::SmallVectorImpl<Condition> &All);
  /// Drops comparisons ScalarEvolution decides; false when \p C is known
  /// to fail. An empty result means it always holds.
  bool simplify(Condition &C);
  IntervalFinder &intervals() { return Intervals; }

private:
  /// Criterion C: both at Base + X(common iteration) + something from the
  /// loops inside, X the same affine function for both, and X's strides
  /// far enough apart (a mixed radix) that no two common iterations'
  /// windows meet: attention's att[b][h][t][t2] written and read in loops
  /// b, t, h, whose rows interleave so that B's per-loop intervals meet.
  void addDistinctIterations(const Access &Ld, const Access &W,
                             llvm::ArrayRef<const llvm::Loop *> Common,
                             Condition &C);
  /// Criterion B at the level of common loop \p Lc, whose outermost common
  /// loop is \p Outermost (and, if \p SameIterationToo, within one
  /// iteration of \p Lc, the write following the load).
  std::optional<Condition> laterIterations(const Access &Ld, const Access &W,
                                           const llvm::Loop *Lc,
                                           const llvm::Loop *Outermost,
                                           bool SameIterationToo);
  const llvm::SCEV *absolute(const Access &A, const llvm::SCEV *Offset);
  bool writeMayFollow(const Access &Ld, const Access &W, const llvm::Loop *Lc);

  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  llvm::DominatorTree &DT;
  IntervalFinder Intervals;
  /// Blocks reachable from a block without passing a loop header again.
  llvm::DenseMap<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>,
                 llvm::DenseSet<llvm::BasicBlock *>>
      ReachableInIteration;
  /// (Lo, End) of the intervals built: Lo < End whenever the access runs.
  std::set<std::pair<const llvm::SCEV *, const llvm::SCEV *>> Below;
};

} // namespace ad

#endif
