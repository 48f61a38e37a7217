//===- MirrorCalls.h - Library calls repeated on the shadows ----*- C++ -*-===//
//
// A MirrorCall callee (KnownFunctions.h: std::map's red-black tree and
// std::list's node functions, compiled into libstdc++) only rewires the
// links of the nodes it is given and of nodes reachable from them. Every
// pointer stored in differentiated memory has its shadow stored at the same
// place in the shadow memory, so the shadow nodes form the same structure;
// the same call on the shadow nodes keeps it so, and returns the shadow of
// what the primal call returns. Both modes emit it in the forward sweep
// (reverse mode needs nothing in the reverse sweep: links carry no adjoint).
//
// Red-black trees decide by node colours, integers the shadow does not keep
// in step (an integer store writes no colour into the shadow): the colours
// the call may read are first copied from the primal nodes to the shadow
// nodes, before the primal call changes them.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_MIRRORCALLS_H
#define AD_MODES_MIRRORCALLS_H

#include "modes/DerivativeCache.h"
#include "llvm/IR/IRBuilder.h"

namespace ad {

class ActivityAnalysis;
struct MirrorShape;

/// Emits the mirror of MirrorCall call \p I, whose clone is \p Clone: the
/// colour copy before \p Clone and the shadow call at \p B. \p ShadowOf and
/// \p CloneOf map primal values to their shadows and clones. \p Result is
/// set to the shadow call (the shadow of the result), or to nullptr when no
/// argument has a shadow (nothing to mirror). Returns false after reporting
/// an error (a node with a shadow linked to one without).
bool emitMirrorCall(ADContext &Ctx, const ActivityAnalysis &AA,
                    llvm::CallBase &I, llvm::CallBase &Clone,
                    llvm::IRBuilderBase &B, const MirrorShape &Shape,
                    llvm::function_ref<llvm::Value *(llvm::Value *)> ShadowOf,
                    llvm::function_ref<llvm::Value *(llvm::Value *)> CloneOf,
                    llvm::Value *&Result);

} // namespace ad

#endif
