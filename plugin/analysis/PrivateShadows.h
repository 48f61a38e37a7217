//===- PrivateShadows.h - Shadows a region's threads may keep apart -*- C++
//-*-===//
//
// In a parallel region every thread adds its adjoints into the same
// shadows. Where every iteration reads the same locations (a weight matrix
// that each row of a batch multiplies, a bias), atomic adds cost more than
// the arithmetic they serve, and contend. Instead each thread of the
// reverse team adds into a zeroed private copy of the part of the shadow
// the region reads, and after the team's reverse sweep the threads sum the
// copies into the shadow, each a slice of it (driver/ForkRegions.cpp).
//
// A captured pointer qualifies when the region only loads floating-point
// values of one type through it, and the offsets it loads from lie in a
// range that values at the region's entry bound: the offsets are affine in
// the region's loops, whose trip counts those values give. The range is
// kept as two scalar-evolution expressions over the region's parameters
// and what it loads through them at its entry.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_PRIVATESHADOWS_H
#define AD_ANALYSIS_PRIVATESHADOWS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace llvm {
class Function;
class Value;
class LoopInfo;
class ScalarEvolution;
class SCEV;
class Type;
} // namespace llvm

namespace ad {

/// One captured pointer whose shadow each thread may keep privately.
struct PrivateShadow {
  /// The region body's parameter: the captured pointer itself (Direct), or
  /// a pointer to the captured variable that holds it.
  unsigned Arg;
  bool Direct;
  /// Bytes from the captured pointer: the region loads within [Low, High).
  const llvm::SCEV *Low, *High;
  /// The floating-point type it loads.
  llvm::Type *Element;
};

/// The captured pointers of OpenMP region body \p Body whose shadows each
/// thread may keep privately.
llvm::SmallVector<PrivateShadow, 2> privateShadows(llvm::Function &Body,
                                                   llvm::ScalarEvolution &SE,
                                                   llvm::LoopInfo &LI);

/// Bit k: parameter k of \p Body is one of privateShadows'.
uint64_t privateShadowMask(llvm::ArrayRef<PrivateShadow> Shadows);

} // namespace ad

#endif
