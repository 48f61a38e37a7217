//===- IndirectCallDispatch.h - Indirect calls as direct calls -*- C++ -*-===//
//
// A virtual method, a std::function's target or a callback passed in is
// called through a pointer known only at run time. Where the module knows
// the functions it can be (analysis/IndirectCallees.h), the canonical primal
// compares the pointer with each of them and calls the one it is directly:
//
//     %r = call %fp(args)
//   becomes
//     if (%fp == @A) %ra = call @A(args)
//     else if (%fp == @B) %rb = call @B(args)
//     else %ru = call %fp(args)        ; !ad.unresolved.callee
//     %r = phi [%ra], [%rb], [%ru]
//
// so each direct call is differentiated like any other, and the derivative
// follows the branch the primal took. The last call is reached only by a
// pointer to a function the module does not know (one defined in another
// file); its row (rules/PlainCalls.cpp) lets it run where no derivative
// reaches it, and stops the program with a message where one does: the
// derivative is never silently wrong. That run-time stop is announced at
// compile time, under -Rpass-missed=ad (and -Rpass-analysis=ad, which lists
// every dispatched call and its candidates). Where the pointer is a choice
// between known functions (a select or phi of them) the set is closed: the
// last candidate takes the else branch and there is no last resort. On a
// GPU, where the stop would be a bare trap, only closed sets are dispatched:
// the other calls stay compile-time errors where derivatives reach them.
//
// Calls that exchange no floating-point value and no pointer carry no
// derivative and are left alone; so are calls the rule table already takes
// whole (a choice between allocators of one row). The canonical primal has
// no invokes left when this runs (Preprocess.cpp turns them into calls: a
// derivative has no landing pads), so a virtual call inside a try block or
// beside an object with a destructor is a call here too.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_INDIRECTCALLDISPATCH_H
#define AD_PRIMAL_INDIRECTCALLDISPATCH_H

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

class IndirectCalleeCache;

/// Splits every indirect call of \p Clone that may carry derivatives, and
/// whose candidates are known (\p Callees), into direct calls of the
/// candidates; returns how many calls were split. With \p ReportFor (the
/// user's function \p Clone was made from), emits the remarks that say so.
unsigned dispatchIndirectCalls(llvm::Function &Clone,
                               IndirectCalleeCache &Callees,
                               const llvm::Function *ReportFor);

} // namespace ad

#endif
