//===- RuntimeFunctions.h - Run-time support emitted into the user's module -===//
//
// Derivatives need a little run-time support: a LIFO tape for the values the
// reverse pass reads back, and loops that move adjoints for memcpy/memmove.
// The API promises that linking needs no extra library, so these are emitted
// as IR into the module being compiled, as linkonce_odr hidden functions that
// the linker merges across translation units. Each is built on first use.
//
// The tape is { ptr data, i64 size, i64 capacity }, one per top-level
// gradient call (so per thread), grown by doubling with realloc.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RUNTIME_RUNTIMEFUNCTIONS_H
#define AD_RUNTIME_RUNTIMEFUNCTIONS_H

#include "llvm/IR/Module.h"

namespace llvm {
class IRBuilderBase;
} // namespace llvm

namespace ad {

class RuntimeFunctions {
public:
  explicit RuntimeFunctions(llvm::Module &M) : M(M) {}

  llvm::StructType *tapeType();
  /// ptr push(ptr tape, i64 bytes): reserves bytes, returns where to write.
  llvm::Function *tapePush();
  /// ptr pop(ptr tape, i64 bytes): releases bytes, returns where to read.
  llvm::Function *tapePop();
  /// void reserve(ptr tape, i64 bytes): makes room for bytes more, exactly,
  /// if it can; pushes still check (see primal/TapeReservation.h).
  llvm::Function *tapeReserve();
  /// void free(ptr tape): releases the tape's buffer.
  llvm::Function *tapeFree();
  /// void memcpyAdjoint(ptr srcShadow, ptr dstShadow, i64 count, i64 stride):
  /// for each of count elements of type FPTy, stride bytes apart,
  /// srcShadow[i] += dstShadow[i]; dstShadow[i] = 0 — in the direction that
  /// is right when the two ranges overlap (memmove).
  llvm::Function *memcpyAdjoint(llvm::Type *FPTy);
  /// void memcpyPointers(ptr srcShadow, ptr dstShadow, i64 count, i64
  /// stride): dstShadow[i] = srcShadow[i] for each of count pointers, stride
  /// bytes apart, in the direction that is right for overlapping ranges. The
  /// forward sweep copies the shadows of the pointers a memcpy moves this
  /// way, not the whole range: the destination's shadow may hold an
  /// output's seed where the floats are.
  llvm::Function *memcpyPointers();

  /// ptr alloc(i64 align, i64 size): size zeroed bytes aligned to align (at
  /// least malloc's 16), for the shadow of an aligned allocation; aborts
  /// when out of memory, as the tape does.
  llvm::Function *shadowAllocAligned();
  /// ptr allocOut(ptr shadowOut, i64 align, i64 size, i32 status): for
  /// posix_memalign(&p, align, size) that returned status: if it succeeded
  /// (0), an aligned zeroed shadow stored to shadowOut and returned; else
  /// null, and shadowOut is left alone.
  llvm::Function *shadowAllocOut();

  /// void sync(ptr node, ptr shadowNode, ptr header, ptr shadowHeader,
  /// i1 fromSuccessor): copies the colours a libstdc++ red-black tree
  /// rebalance may read, from the primal nodes to their shadows: on the path
  /// from node (or its in-order successor) up to header, each node and its
  /// children and grandchildren, then header; with a null header, node's
  /// colour alone. Shadow nodes are found by walking the shadow links in
  /// step with the primal ones (the shadow tree mirrors the primal).
  llvm::Function *rbTreeSyncColours();

  /// Emits a zeroed shadow for an allocation of \p Count (null: one) times
  /// \p Size bytes aligned to \p Align (null: malloc's own alignment).
  llvm::Value *allocateShadow(llvm::IRBuilderBase &B, llvm::Value *Count,
                              llvm::Value *Size, llvm::Value *Align);
  /// Emits the shadow of posix_memalign(&p, \p Align, \p Size) that
  /// returned \p Status: stored to \p ShadowOut (the shadow of &p) when it
  /// succeeded, and returned (shadowAllocOut).
  llvm::Value *allocateShadowOut(llvm::IRBuilderBase &B,
                                 llvm::Value *ShadowOut, llvm::Value *Align,
                                 llvm::Value *Size, llvm::Value *Status);

  llvm::FunctionCallee calloc();
  llvm::FunctionCallee free();
  llvm::FunctionCallee mallocUsableSize();

private:
  llvm::Function *getOrCreate(llvm::StringRef Name, llvm::FunctionType *Ty,
                              bool &Created);
  llvm::Function *tapeGrow();
  /// realloc(tape->data, Capacity), the new buffer or null.
  llvm::Value *reallocBuffer(llvm::IRBuilderBase &B, llvm::Value *Tape,
                             llvm::Value *Capacity);
  /// tape->data = Data; tape->capacity = Capacity.
  void setBuffer(llvm::IRBuilderBase &B, llvm::Value *Tape, llvm::Value *Data,
                 llvm::Value *Capacity);
  /// void syncSubtree(ptr node, ptr shadow, i32 depth).
  llvm::Function *rbTreeSyncSubtree();
  void emitAdjointLoop(llvm::Function *F, llvm::Type *FPTy, bool Ascending,
                       llvm::BasicBlock *Entry, llvm::BasicBlock *Exit);

  llvm::Module &M;
};

} // namespace ad

#endif
