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
// floating point, so that nothing but the body has a derivative. LLVM's
// DependenceAnalysis shows the independence: every dependence between two
// accesses of the body, one a write, must stay within one iteration of every
// loop of the nest (direction = at each of its levels).
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_INDEPENDENTITERATIONS_H
#define AD_ANALYSIS_INDEPENDENTITERATIONS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace llvm {
class Function;
class Loop;
} // namespace llvm

namespace ad {

/// A loop nest whose iterations are independent, outermost first; the body
/// that runs once per iteration is the innermost loop's.
struct IndependentNest {
  llvm::SmallVector<llvm::Loop *, 4> Loops;
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
