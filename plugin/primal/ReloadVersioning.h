//===- ReloadVersioning.h - Reload loads that later writes provably miss --===//
//
// A gradient reads a loaded value again in its reverse sweep. If nothing the
// function writes after the load can change the location, the reverse sweep
// reloads it; otherwise it is taped, once per execution of the load. Alias
// analysis cannot tell slices of one buffer apart when their offsets are
// computed at run time: a GPT-2 forward whose layers each read their input
// from one activation buffer and write their output further on tapes every
// input element once per multiply-add, though no layer ever overwrites what
// an earlier one wrote.
//
// ScalarEvolution can: each access's address over a loop nest is an affine
// function of the induction variables, so the interval it touches is known
// when the nest starts (AccessIntervals.h). For a load in a loop (or a store,
// whose value the reverse sweep can read back from where it was stored) and
// each write that may follow it, one of three conditions excludes an
// overwrite:
//
//  A. the intervals the two touch over the whole run are disjoint;
//  B. at each level of their common loops, both advance by the same stride
//     per iteration, and the write's interval in any later iteration lies
//     beyond the access's in this one (and within the innermost, the write
//     precedes the access or misses it): a layer's output slice never
//     reaches back to its input;
//  C. both are at one affine function X of the common loops, plus what the
//     loops inside add, and X's strides form a mixed radix that keeps any
//     two common iterations apart (attention's att[b][h][t][t2] in loop
//     order b, t, h, whose rows interleave so that B's intervals meet).
//
// What ScalarEvolution proves at compile time costs nothing; the rest is
// checked at run time. The gradient's canonical primal is versioned: where
// the checks can first be evaluated (outside all loops, dominating every
// such access and the return), the function branches to a copy of the rest
// in which these accesses carry !ad.unchanged metadata (core/PrimalMarks.h;
// the reverse builder reads them back) or to the original, which tapes them.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_RELOADVERSIONING_H
#define AD_MODES_RELOADVERSIONING_H

#include "analysis/AccessIntervals.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/PassManager.h"
#include <optional>

namespace llvm {
class BasicBlock;
class SCEVExpander;
class Value;
class Function;
class Instruction;
} // namespace llvm

namespace ad {

/// What versioning did to a function.
struct ReloadVersions {
  /// Loads and stores whose values the checked copy reads back.
  unsigned Accesses = 0;
  /// Loads the checked copy shows unchanged within their own loop.
  unsigned InLoop = 0;
  /// Arguments of parallel regions the checked copy shows unchanged, which
  /// the regions' derivatives then read back (their memory, to the
  /// function, is what the region reads through them).
  unsigned RegionArguments = 0;
  /// Arguments of parallel regions whose every location the checked copy
  /// shows one iteration owns (analysis/IterationOwnership.h).
  unsigned RegionOwned = 0;
  /// Arguments of parallel regions through which the checked copy shows
  /// nothing changes what the region wrote, which the regions' derivatives
  /// then read back (DerivativeSignature::KeptWriteArgs).
  unsigned RegionWritten = 0;
  /// Run-time comparisons (after dropping duplicates).
  unsigned Checks = 0;
  /// The blocks of the checked copy.
  llvm::DenseSet<const llvm::BasicBlock *> CheckedCopy;
};

/// Versions \p F (a canonical primal, to be differentiated as a gradient) as
/// described above; nullopt if there was nothing to gain (F is then left in
/// an unspecified state, for the caller to drop).
std::optional<ReloadVersions>
versionForReloads(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// Condition \p C (a disjunction of conjunctions of comparisons), expanded
/// before \p At: true where it holds.
llvm::Value *expandCondition(const Condition &C, llvm::SCEVExpander &Exp,
                             llvm::Instruction *At);

} // namespace ad

#endif
