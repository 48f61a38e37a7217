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
#ifndef AD_RULES_MIRRORCALLS_H
#define AD_RULES_MIRRORCALLS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

/// The shadow call returns the shadow of what the primal call returns.
/// Emits the mirror of \p Call: the colour copy before its clone and the
/// shadow call at the builder, whose result becomes the shadow of \p
/// Call's. Nothing when no argument has a shadow. False after reporting an
/// error (a node with a shadow linked to one without).

} // namespace ad

#endif
