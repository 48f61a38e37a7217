//===- MemoryLayout.h - Where the floats and pointers of memory are -*- C++ -*-===//
//
// What a byte-wise operation (memcpy, memmove, realloc) must move along: the
// adjoints of the floating-point fields and the shadows of the pointers. The
// type analysis (analysis/TypeAnalysis.h) finds a layout; the call rows
// (rules/MemoryCalls.cpp) move derivatives by it.
//
//===----------------------------------------------------------------------===//
#ifndef AD_CORE_MEMORYLAYOUT_H
#define AD_CORE_MEMORYLAYOUT_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace llvm {
class Type;
} // namespace llvm

namespace ad {

struct FloatField {
  uint64_t Offset;
  llvm::Type *Ty; ///< The float type (nullptr for a pointer in Others).
};

/// Memory as a repetition of one element: the floating-point fields and the
/// pointers of each element, which is what a copy must move derivatives
/// and shadows for (integers move nothing).
struct MemoryLayout {
  uint64_t Stride = 0; ///< Size of one element in bytes.
  llvm::SmallVector<FloatField, 4> Floats;
  bool HasPointers = false;
  /// The pointers of each element.
  llvm::SmallVector<FloatField, 4> Others;
};

} // namespace ad

#endif
