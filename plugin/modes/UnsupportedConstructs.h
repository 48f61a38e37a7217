//===- UnsupportedConstructs.h - What neither mode can differentiate
//-------===//
//
// Some code is valid LLVM IR yet has no derivative we can build correctly:
// the bits of a float computed on as an integer, a pointer rebuilt from an
// integer (its shadow is lost), scalable vectors (sizes known only at run
// time). Both modes check for them before building anything, so the user
// gets one diagnostic at the construct instead of a wrong derivative.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_UNSUPPORTEDCONSTRUCTS_H
#define AD_MODES_UNSUPPORTEDCONSTRUCTS_H

#include "analysis/ActivityAnalysis.h"
#include "modes/DerivativeCache.h"
#include "llvm/Analysis/LoopInfo.h"

namespace ad {

/// Reports the first unsupported construct in \p F; true when there is none.
bool checkSupportedConstructs(ADContext &Ctx, const ActivityAnalysis &AA,
                              llvm::Function &F);

/// Reverse mode: reports a cycle entered at more than one block (a loop
/// jumped into with goto), which the reverse sweep's loop reasoning,
/// built on LoopInfo, does not see; true when \p F has none.
bool checkReducibleControlFlow(ADContext &Ctx, llvm::Function &F,
                               const llvm::LoopInfo &LI);

} // namespace ad

#endif
