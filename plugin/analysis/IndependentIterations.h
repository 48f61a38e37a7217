//===- IndependentIterations.h - Loop nests whose iterations share nothing ===//
//
// A gradient normally runs the whole forward sweep, taping what the reverse
// sweep needs, and then the whole reverse sweep. Where the iterations of a
// loop nest are independent (no iteration reads or writes memory another one
// writes), each iteration's forward and reverse may instead run back to back:
// the reverse of one iteration only reads the shadows of what that iteration
// wrote and adds into the shadows of what it read, so the reverses of
// different iterations commute. The tape then holds one iteration (a softmax
// row's exponentials) and stays in cache (modes/FusedIterations.h).
//
// This analysis finds such a nest in a canonical primal: the loops around
// every instruction that touches memory or floating-point values, down to the
// innermost one whose iterations still run loops of their own (a row of a
// softmax, of a layer normalization, a head of attention). Everything outside
// the nest's innermost body is integer control: no memory access, no call, no
// floating point, so that nothing but the body has a derivative.
//
// Independence, per object the nest writes (a parameter, a global): every
// access to it in an iteration lies in that iteration's footprint, base +
// [Lo, End), where base is affine in the nest's induction variables, with a
// stride per loop, and Lo, End are the same in every iteration (what the
// loops inside add: the intervals of analysis/AccessIntervals.h). Taken from
// the smallest stride up, each stride at least the span of everything below
// it (the footprint, then the footprint and the smaller strides times their
// trip counts less one), two different iterations' footprints never meet: a
// mixed-radix number. Objects are told apart by alias analysis (restrict
// parameters). What ScalarEvolution cannot show the gradient checks at run
// time, before the nest (Checks). A load at an offset the program loads (a
// softmax row read at a target index, probs[bt][targets[bt]]) is placed by
// an inspection: the nest's address arithmetic run first, checking that each
// such load lands in its own iteration's footprint (Inspected). Where the
// footprints do not apply, LLVM's DependenceAnalysis may still show every
// dependence between two accesses within one iteration (direction = at
// each level of the nest), at compile time.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_INDEPENDENTITERATIONS_H
#define AD_ANALYSIS_INDEPENDENTITERATIONS_H

#include "analysis/AccessIntervals.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace llvm {
class Function;
class Instruction;
class Loop;
} // namespace llvm

namespace ad {

/// A load whose address the program computes from a value it loads: its
/// offset from the base of its iteration's footprint (ScalarEvolution at
/// the load) must lie in [Lo, End - Size].
struct InspectedLoad {
  llvm::Instruction *Load;
  const llvm::SCEV *Offset, *Size, *Lo, *End;
};

/// A comparison to hold at run time where a branch condition (one value
/// for the whole nest) takes the given side: a padding memset's length,
/// zext(Vp - V - 1) * 4 + 4 under `if (V < Vp)`, has its narrow value
/// non-negative where it runs.
struct GuardedCheck {
  llvm::Value *Guard;
  bool Taken;
  Compare Holds;
};

/// A loop nest whose iterations are independent, outermost first; the body
/// that runs once per iteration is the innermost loop's. Where Checks or
/// Inspected are not empty, only where they hold.
struct IndependentNest {
  llvm::SmallVector<llvm::Loop *, 4> Loops;
  /// Comparisons of values known before the nest, to hold at run time.
  Conjunction Checks;
  llvm::SmallVector<GuardedCheck, 2> GuardedChecks;
  llvm::SmallVector<InspectedLoad, 2> Inspected;
  llvm::Loop *innermost() const { return Loops.back(); }
};

/// The nest of \p F described above, or an empty nest with \p WhyNot saying
/// what kept it from one (empty when \p F has no loop with loops inside that
/// does the work, where there is nothing to say).
IndependentNest findIndependentNest(llvm::Function &F,
                                    llvm::FunctionAnalysisManager &FAM,
                                    std::string &WhyNot);

} // namespace ad

#endif
