//===- FlangRuntime.h - Differentiable bodies of flang's runtime ----------===//
//
// flang lowers array assignment and the array intrinsics it does not inline
// (SUM, MAXVAL, DOT_PRODUCT, MATMUL, ...) to calls of its runtime library,
// which has no IR body. fortran/FlangBodies.c writes, in C over flang's
// array descriptor, what those functions do for arrays of intrinsic types;
// it is compiled to bitcode when the plugin is built and embedded in it.
// A module gets only the bodies its differentiated functions call, linked
// in as internal functions, so the program still links with nothing more
// than flang's own runtime.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RUNTIME_FLANGRUNTIME_H
#define AD_RUNTIME_FLANGRUNTIME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace ad {

/// Whether \p Name is one of flang's runtime functions (_FortranA...).
bool isFlangRuntimeName(llvm::StringRef Name);

/// The bodies of flang's runtime functions \p Runtime (declarations in
/// \p M), linked into \p M (once each; the embedded bitcode is read at
/// most once per call); nullptr for those there is no body for.
llvm::SmallVector<llvm::Function *, 8>
linkFlangBodies(llvm::Module &M,
                llvm::ArrayRef<const llvm::Function *> Runtime);

} // namespace ad

#endif
