//===- FlangCalls.h - flang's runtime calls replaced by their bodies ------===//
//
// Code flang compiles calls its runtime library for array assignment and
// for the array intrinsics it does not inline; that library has no IR
// body. In the canonical primal each such call that runtime/FlangRuntime
// has a body for calls the body instead, inlined, so that it is
// differentiated like the code around it. The body's checks of the
// descriptor (its element type, its rank, whether it is allocated) usually
// read values the code stored just before the call: they are folded, and
// the branches they rule out (among them the calls of the real runtime for
// the cases the bodies leave to it) go away. The user's function keeps
// calling flang's runtime.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_FLANGCALLS_H
#define AD_PRIMAL_FLANGCALLS_H

#include "llvm/IR/PassManager.h"

namespace ad {

/// Inlines into \p F the bodies of the flang runtime calls it makes; returns
/// how many calls were replaced.
unsigned inlineFlangBodies(llvm::Function &F,
                           llvm::FunctionAnalysisManager &FAM);

} // namespace ad

#endif
