//===- PlainCalls.h - Rows of calls to differentiate or to leave alone -*- C++ -*-===//
//
// A function with a body is differentiated itself: each mode calls the
// callee's derivative in place of the call (its tangent; its augmented
// forward sweep, which keeps a tape; the adjoint that reads it), built
// through the derivative cache. A function with neither a body nor a rule
// is an error where derivatives reach it, and inactive otherwise (the
// assumption docs/DESIGN.md states under "Calls without a body"). Markers
// and inactive calls have rows with no functions: nothing to do.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_PLAINCALLS_H
#define AD_RULES_PLAINCALLS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

/// Forward mode and the forward sweep.
/// Reports an unknown call that derivatives reach (in forward mode and in
/// the forward sweep; the reverse sweep is never built after one).

} // namespace ad

#endif
