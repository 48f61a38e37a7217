//===- TypeAnalysis.h - What the bytes of memory hold ----------*- C++ -*-===//
//
// memcpy, memmove, realloc and integer copies (-O2 moves a double or a
// pointer as an i64, a byte loop moves anything as i8) see only bytes. To
// move derivatives with them the plugin must know which bytes hold floats
// (whose adjoints move), which hold pointers (whose shadows move) and which
// hold integers (nothing moves). This analysis answers "what does the memory
// at pointer P hold" from every source the IR offers, in the manner of
// Enzyme's type analysis but on demand, one pointer at a time:
//
//  - the allocation P comes from (an alloca or a global of some type);
//  - typed GEPs that index P (a struct field, an array element);
//  - loads and stores through P, refined by their TBAA access tags (an i64
//    that moves a double is tagged "double"), and the struct-path base type
//    of those tags (one access tagged (Tile, int, 4) describes every field
//    of Tile, padding included);
//  - pointer TBAA tags on the load that produced P ("p1 float": P points to
//    floats);
//  - clang's !tbaa.struct on a copy (each field's offset, size and type);
//  - the functions P is passed to (their parameters' uses) and, for a
//    parameter, the callers' actual arguments, through any number of calls;
//  - the other side of a copy (memcpy, or an integer load stored elsewhere),
//    over the bytes copied.
//
// Pointers that are P plus a constant describe one memory; P plus a
// run-time multiple of s (an array walked by index, or a pointer bumped in
// a loop) makes what they say periodic with period s. A query then asks
// about a window of bytes, and every byte of it must be typed, and typed
// one way, or the answer is "unknown": never a guess. (Guessing was the
// bug: a layout taken from the two int fields one side of a struct copy
// happened to store, which dropped the copy of the pointer field's shadow.)
//
// Where facts disagree, the more specific one wins: a fact at a fixed
// offset beats a periodic one, and a longer period beats a shorter one (a
// struct's int field beats the doubles of an array inside that struct,
// seen through an index with no bound). Floats and pointers beat integers
// at the same bytes (a union, or memory reused): moving an adjoint or a
// shadow pointer through bytes that hold an integer at that moment moves
// only zeros, while dropping a real one loses a derivative.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_TYPEANALYSIS_H
#define AD_ANALYSIS_TYPEANALYSIS_H

#include "core/MemoryLayout.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace llvm {
class CallBase;
class DataLayout;
class Instruction;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace ad {

class ArgumentTypes;

enum class ByteKind : uint8_t { Integer, Pointer, Float };

/// One fact: the scalar at Offset bytes from the pointer asked about is
/// Size bytes of Kind (FloatTy for floats); with a non-zero Period it
/// repeats every Period bytes, both ways. Facts learned through a copy hold
/// only over the copied bytes, [Lo, Hi).
struct TypedBytes {
  int64_t Offset = 0;
  uint64_t Size = 0;
  uint64_t Period = 0;
  ByteKind Kind = ByteKind::Integer;
  llvm::Type *FloatTy = nullptr;
  int64_t Lo = INT64_MIN, Hi = INT64_MAX;
};

/// What the bytes [Offset, Offset + Size) hold, as one integer copy sees
/// them.
struct CopyContent {
  bool AnyFloat = false;
  bool AnyPointer = false;
  /// Every byte is typed.
  bool AllKnown = false;
  /// The bytes are exactly one float of this type (a double moved as i64).
  llvm::Type *WholeFloat = nullptr;
};

/// Everything known about the memory at one pointer.
class MemoryTypes {
public:
  /// The layout of the bytes [0, Len): a constant \p Len, or, with none, an
  /// array of some element starting at the pointer (a copy or reallocation
  /// of a run-time length). std::nullopt when some byte is untyped or typed
  /// two incompatible ways.
  std::optional<MemoryLayout> layout(std::optional<uint64_t> Len) const;
  /// What the \p Size bytes at the pointer hold. \p Precise leaves out
  /// facts that repeat closer than their own size (a double "every byte":
  /// what a pointer at an unknown offset into a struct sees), which only
  /// say that a float may be somewhere near.
  CopyContent contentOf(uint64_t Size, bool Precise = false) const;

  void add(const TypedBytes &T) { Facts.push_back(T); }
  /// Drops repeated facts (many pointers say the same thing).
  void deduplicate();
  llvm::ArrayRef<TypedBytes> facts() const { return Facts; }
  /// The exploration stopped at its size limit: facts may be missing.
  bool Truncated = false;

private:
  llvm::SmallVector<TypedBytes, 16> Facts;
};

class TypeAnalysis {
public:
  /// \p Callers gives the call sites of each function (and the originals of
  /// canonical clones), for the facts callers know about parameters.
  TypeAnalysis(const llvm::DataLayout &DL, const ArgumentTypes *Callers)
      : DL(DL), Callers(Callers) {}

  /// What the memory at \p P holds, from every source above. With
  /// \p FollowFields, also through pointers kept in memory: a pointer loaded
  /// from a field points where the pointers stored into that field point
  /// (-O0 keeps a C++ iterator's `int *` in a struct). That sees more, and
  /// merges more (every node of a linked structure), so queries ask it only
  /// for bytes nothing else types.
  MemoryTypes memoryAt(const llvm::Value *P, bool FollowFields = false) const;

  /// What the integer \p Load of \p Size bytes moves (stored by \p Store,
  /// if it is a copy): what its own access tag or the store's says, else
  /// what the memory it reads holds (exploring from it crosses the copy to
  /// the destination's side too); with \p Precise, see
  /// MemoryTypes::contentOf.
  CopyContent integerCopyContent(const llvm::Instruction &Load,
                                 const llvm::Instruction *Store, uint64_t Size,
                                 bool Precise) const;

  /// The layout of the bytes a memcpy or memmove copies (the whole copy,
  /// or one element of it when its length is known only at run time).
  std::optional<MemoryLayout> layoutOfCopy(const llvm::CallBase &Copy) const;

  /// With -ad-explain-types, prints what the query from \p P that typed
  /// \p At was given (an integer copy found partial or untyped).
  void explainContent(const llvm::Instruction &At, const llvm::Value *P) const;

  /// The layout of the element of a reallocated buffer.
  std::optional<MemoryLayout>
  layoutOfReallocation(const llvm::CallBase &Realloc) const;

private:
  const llvm::DataLayout &DL;
  const ArgumentTypes *Callers;
};

/// "double@8 ptr@24 i32@0": the facts, for the printers and tests.
void printFacts(llvm::raw_ostream &OS, const MemoryTypes &M);

} // namespace ad

#endif
