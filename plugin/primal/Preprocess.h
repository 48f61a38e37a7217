//===- Preprocess.h - The canonical primal that derivatives are built from --===//
//
// Derivatives are built from a private clone of the user's function, put in a
// canonical form first: scalars promoted out of allocas (so that -O0 code
// differentiates as well as -O2 code), one return block, no optnone. The
// user's function itself is never changed.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_PREPROCESS_H
#define AD_MODES_PREPROCESS_H

#include "llvm/IR/Attributes.h"
#include "llvm/IR/PassManager.h"

namespace ad {

class IndirectCalleeCache;

/// Clones \p F into the module as an internal function in canonical form,
/// its running extremes read back after their loops (SelectReductions.h;
/// how many, in \p SelectReductions if given) and its indirect calls
/// dispatched between the candidates \p Callees finds
/// (IndirectCallDispatch.h), with remarks saying so where \p Report (once
/// per function: its other clones are the same).
llvm::Function *createCanonicalPrimal(llvm::Function &F,
                                      llvm::FunctionAnalysisManager &FAM,
                                      IndirectCalleeCache &Callees, bool Report,
                                      unsigned *SelectReductions = nullptr);

/// Removes function attributes that would let the optimizer assume a
/// derivative does what the primal does (touch only argument memory, never
/// free, ...): a derivative also writes shadows and allocates.
void dropPrimalOnlyAttributes(llvm::Function &F);

/// After CloneFunctionInto copied the primal's attributes and calling
/// convention onto derivative \p F: puts back \p Saved (the derivative's own
/// attribute list), drops primal-only attributes and uses C's convention,
/// which is what the derivative's callers use.
void restoreDerivativeAttributes(llvm::Function &F, llvm::AttributeList Saved);

} // namespace ad

#endif
