//===- MemoryLayout.h - Where the floating-point data sits in raw memory
//----===//
//
// memcpy, memmove, memset and realloc see only bytes. To move adjoints with
// them we need to know which bytes hold floats or doubles and which hold
// pointers. This deduces a periodic layout from the IR types around a
// pointer: the allocation it comes from, the GEPs that index it and the loads
// and stores through it. When nothing pins the layout down, the caller
// reports an error rather than guessing.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_MEMORYLAYOUT_H
#define AD_ANALYSIS_MEMORYLAYOUT_H

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace llvm {
class DataLayout;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace ad {

class ArgumentTypes;

struct FloatField {
  uint64_t Offset;
  llvm::Type *Ty;
};

/// Memory as a repetition of one element: the FP fields of each element.
struct MemoryLayout {
  uint64_t Stride = 0; ///< Size of one element in bytes.
  llvm::SmallVector<FloatField, 4> Floats;
  bool HasPointers = false;
  /// The other scalars (integers, pointers) of each element, for printing.
  llvm::SmallVector<FloatField, 4> Others;
};

/// The layout of the memory \p Ptr points to, deduced from \p Ptr and
/// (optionally) \p Other, the other side of a copy; std::nullopt if unknown.
/// \p Transfer, when given, is the memcpy/memmove itself: clang describes
/// the fields of a struct copy in its !tbaa.struct metadata, the most precise
/// source there is. \p Args, when given, answers for bare pointer parameters
/// from what the callers pass.
std::optional<MemoryLayout>
deduceMemoryLayout(const llvm::DataLayout &DL, const llvm::Value *Ptr,
                   const llvm::Value *Other,
                   const llvm::Instruction *Transfer = nullptr,
                   const ArgumentTypes *Args = nullptr);

/// What an integer load or store \p Access of \p Size bytes through \p Ptr
/// really moves, for O2's habit of copying a double as an i64: the
/// floating-point type, nullptr when it moves an integer or a pointer, or
/// std::nullopt when neither its TBAA access tag nor the type defining
/// \p Ptr (an alloca, a global, a typed GEP, at a constant offset) says.
std::optional<llvm::Type *>
floatMovedByIntegerAccess(const llvm::DataLayout &DL,
                          const llvm::Instruction &Access,
                          const llvm::Value *Ptr, uint64_t Size);

} // namespace ad

#endif
