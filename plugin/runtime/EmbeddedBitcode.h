//===- EmbeddedBitcode.h - Run-time support written in C, compiled in -----===//
//
// Some run-time support is easier to write in C than to emit as IR (the
// checkpointing scheduler, the bodies of flang's runtime functions): it is
// compiled to bitcode when the plugin is built, embedded in the plugin
// (cmake/EmbedBytes.cmake), and parsed into the module's context where a
// module needs it, retargeted to that module.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RUNTIME_EMBEDDEDBITCODE_H
#define AD_RUNTIME_EMBEDDEDBITCODE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace llvm {
class Module;
}

namespace ad {

/// Parses \p Bytes (bitcode of plain C with no target-specific code) into
/// \p M's context, with \p M's target and data layout and none of the
/// compile's module flags or target attributes, which would have to agree
/// with \p M's to link. Bitcode the plugin embedded always parses; a failure
/// is a broken build and fatal.
std::unique_ptr<llvm::Module>
parseEmbeddedBitcode(llvm::ArrayRef<unsigned char> Bytes, llvm::StringRef Name,
                     llvm::Module &M);

} // namespace ad

#endif
