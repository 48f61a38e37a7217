//===- CustomCalls.h - The row of calls with user-registered rules -*- C++ -*-===//
//
// A call to f with a rule registered by AD_FORWARD_RULE / AD_REVERSE_RULE
// (CustomRules.h) is replaced, in forward mode, by the tangent f_fwd
// returns; the reverse sweep calls f_rev with the result's adjoint and
// slots for the arguments' adjoints, zeroed first, and adds what it put
// there. The forward sweep only checks that the reverse rule exists and
// fits, so that a bad rule is reported before anything is built.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_CUSTOMCALLS_H
#define AD_RULES_CUSTOMCALLS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

} // namespace ad

#endif
