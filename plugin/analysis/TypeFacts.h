//===- TypeFacts.h - What one pointer says about its memory ----*- C++ -*-===//
//
// The facts the type analysis (TypeAnalysis.h) resolves come from single
// pointers: the type of the allocation or global a pointer is, a typed
// GEP's source type, the loads and stores through it with their TBAA tags
// (and the struct-path base types those tags name), the pointer tag of the
// load that produced it, the !tbaa.struct of a copy it takes part in. Each
// is a fact about the bytes at an offset from that pointer; the explorer
// (TypeExplorer.h) places the pointers relative to the one asked about.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_TYPEFACTS_H
#define AD_ANALYSIS_TYPEFACTS_H

#include "analysis/TypeAnalysis.h"
#include <optional>

namespace llvm {
class DataLayout;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace ad {

/// Adds the scalars of type \p T placed at \p Base, repeating every
/// \p Period bytes (0: once), to \p Out.
void flattenType(const llvm::DataLayout &DL, llvm::Type *T, int64_t Base,
                 uint64_t Period, MemoryTypes &Out);

/// What \p V itself says about the bytes at offsets from it: its
/// definition (an alloca, a global, a typed GEP, a load with a pointer tag)
/// and its uses (accesses, copies, masked vector accesses).
void collectLocalFacts(const llvm::DataLayout &DL, const llvm::Value *V,
                       MemoryTypes &Out);

/// What an access of \p Size bytes moves by its own scalar TBAA tag (strict
/// aliasing: a "long" access moves a long), or std::nullopt without one.
std::optional<CopyContent> contentByTag(const llvm::Instruction &Access,
                                        uint64_t Size);

} // namespace ad

#endif
