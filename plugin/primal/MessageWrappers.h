//===- MessageWrappers.h - MPI calls through the run-time support --------===//
//
// In the canonical primal, each call of an MPI operation the plugin
// differentiates (rules/MessagePassing.h) calls the run-time support's
// wrapper instead: the same arguments, then a null shadow per buffer, and a
// record for the reverse sweep as the result. The MPI function's own result
// (an error code; the default error handler aborts on errors) becomes
// MPI_SUCCESS. The user's function keeps calling MPI. Where the plugin was
// built without Open MPI's headers the calls stay as they are, and a
// derivative that reaches one is refused at its line.
//
//===----------------------------------------------------------------------===//
#ifndef AD_PRIMAL_MESSAGEWRAPPERS_H
#define AD_PRIMAL_MESSAGEWRAPPERS_H

namespace llvm {
class Function;
}

namespace ad {

/// Rewrites \p F's MPI calls to the wrappers; returns how many.
unsigned wrapMessageCalls(llvm::Function &F);

} // namespace ad

#endif
