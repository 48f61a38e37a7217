//===- CheckpointPlan.h - What a time loop carries and writes ---*- C++ -*-===//
//
// The analysis half of CheckpointLoops.h: whether a time loop can be
// checkpointed, and if so what its steps carry (header phis, pointers it
// swaps) and which bytes each step may write (bases plus offset intervals
// over the step's loops, the comparisons under which those loops run and
// the wrap-free assumptions to check). It only reads the IR; the rewrite
// (CheckpointLoops.cpp) acts on the plan while the analyses it came from
// are still valid.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_CHECKPOINTPLAN_H
#define AD_PRIMAL_CHECKPOINTPLAN_H

#include "analysis/AccessIntervals.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <variant>

namespace llvm {
class AAResults;
class DominatorTree;
class Function;
class Loop;
class LoopInfo;
class PHINode;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace ad {

/// Pointers the loop swaps: header phis whose value from the latch is
/// another phi of the class, all starting at pointers fixed before the loop.
struct SwapClass {
  llvm::SmallVector<llvm::PHINode *, 2> Phis;
  llvm::SmallVector<llvm::Value *, 2> Starts; // distinct
};

/// Bytes [Base + Lo, Base + Hi + Size) a step may write: Base is a value
/// fixed before the loop (Class < 0) or whichever start of swap class Class
/// phi ClassPhi holds.
struct WriteRange {
  llvm::Value *Base = nullptr;
  int Class = -1;
  llvm::PHINode *ClassPhi = nullptr;
  const llvm::SCEV *Lo = nullptr, *Hi = nullptr, *Size = nullptr;
  /// Written after the loop, never by it: part of whole snapshots only.
  bool AfterLoop = false;
  /// The interval holds where these do (narrow index arithmetic does not
  /// wrap): checked each time the ranges are computed.
  Conjunction Assume;
  /// The store's loops are entered (their guards hold): otherwise the
  /// range is empty (an array of no elements may be no memory at all).
  Conjunction Runs;
};

struct Plan {
  llvm::Loop *L = nullptr;
  llvm::SmallVector<llvm::PHINode *, 4> Carried; // in field order
  llvm::SmallVector<SwapClass, 2> Classes;
  llvm::DenseMap<llvm::PHINode *, unsigned> ClassOf;
  llvm::SmallVector<WriteRange, 8> Writes;
  const llvm::SCEV *TripCount = nullptr; // backedge-taken count + 1, or null
  /// Values used after the loop, each the carried value of a phi there:
  /// the phi's value from the latch where the latch exits, the phi itself
  /// where the header does.
  llvm::SmallVector<std::pair<llvm::Instruction *, llvm::PHINode *>, 2> LiveOut;
};

/// What rejects a loop, for the missed remark.
struct Rejection {
  std::string Why;
};

/// The plan for top-level loop \p L of \p F, or why there is none.
std::variant<Plan, Rejection> planCheckpoint(llvm::Function &F, llvm::Loop &L,
                                             llvm::LoopInfo &LI,
                                             llvm::ScalarEvolution &SE,
                                             llvm::DominatorTree &DT,
                                             llvm::AAResults &AA);

} // namespace ad

#endif
