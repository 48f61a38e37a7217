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
  /// if it can; pushes still check (see modes/TapeReservation.h).
  llvm::Function *tapeReserve();
  /// void free(ptr tape): releases the tape's buffer.
  llvm::Function *tapeFree();
  /// void memcpyAdjoint(ptr srcShadow, ptr dstShadow, i64 count, i64 stride):
  /// for each of count elements of type FPTy, stride bytes apart,
  /// srcShadow[i] += dstShadow[i]; dstShadow[i] = 0 — in the direction that
  /// is right when the two ranges overlap (memmove).
  llvm::Function *memcpyAdjoint(llvm::Type *FPTy);

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
  void emitAdjointLoop(llvm::Function *F, llvm::Type *FPTy, bool Ascending,
                       llvm::BasicBlock *Entry, llvm::BasicBlock *Exit);

  llvm::Module &M;
};

} // namespace ad

#endif
