//===- MessageRuntime.h - The MPI run-time support, linked in -------------===//
//
// What the derivatives of MPI operations do when they run (the wrappers that
// record an operation, the tangent wrappers, __ad_mpi_reverse;
// mpi/MpiDerivatives.c) is C written against Open MPI's mpi.h, compiled to
// bitcode when the plugin is built, and embedded in it. A module whose
// derivatives call it gets a copy linked in, which the program's modules
// share (linkonce_odr, hidden); the program links with MPI as it already
// does (mpicc).
//
//===----------------------------------------------------------------------===//
#ifndef AD_RUNTIME_MESSAGERUNTIME_H
#define AD_RUNTIME_MESSAGERUNTIME_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace ad {

/// Whether the plugin was built with Open MPI's headers, and so carries the
/// run-time support.
bool messageRuntimeAvailable();

/// Whether \p Name is one of the run-time support's functions.
inline bool isMessageRuntimeName(llvm::StringRef Name) {
  return Name.starts_with("__ad_mpi_");
}
/// The reverse sweep's one entry: void __ad_mpi_reverse(void *record).
constexpr const char *MessageReverseName = "__ad_mpi_reverse";

/// Links the run-time support's functions that \p M calls into \p M;
/// nothing when it calls none.
void linkMessageRuntime(llvm::Module &M);

} // namespace ad

#endif
