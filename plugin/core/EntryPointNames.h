//===- EntryPointNames.h - The plugin's entry points by name ---*- C++ -*-===//
//
// __ad_autodiff and __ad_fwddiff (and their variants with another return
// type, __ad_autodiff_d2) are recognized by name wherever a layer needs to
// know: the driver lowers their calls, and the analyses must not mistake
// the function an entry point is given for one called through a pointer.
//
//===----------------------------------------------------------------------===//
#ifndef AD_CORE_ENTRYPOINTNAMES_H
#define AD_CORE_ENTRYPOINTNAMES_H

#include <optional>

namespace llvm {
class Function;
} // namespace llvm

namespace ad {

enum class EntryPointKind { Reverse, Forward };

/// The entry point a callee name denotes, if any: __ad_autodiff[_*] or
/// __ad_fwddiff[_*], also when C++-mangled.
std::optional<EntryPointKind> entryPointKind(const llvm::Function &F);

} // namespace ad

#endif
