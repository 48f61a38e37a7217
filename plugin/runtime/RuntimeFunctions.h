//===- RuntimeFunctions.h - Run-time support emitted into the user's module
//-===//
//
// Derivatives need a little run-time support: a LIFO tape for the values the
// reverse pass reads back, and loops that move adjoints for memcpy/memmove.
// The API promises that linking needs no extra library, so these are emitted
// as IR into the module being compiled, as linkonce_odr hidden functions that
// the linker merges across translation units. Each is built on first use.
//
// The tape is { ptr data, i64 size, i64 capacity }, one per top-level
// gradient call (so per thread), grown by doubling with realloc. Where
// threads have pthread keys (Linux), a freed tape's buffer is kept, one per
// thread, for the next tape of the thread (TapeRuntime.cpp).
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
  /// ptr push_unchecked(ptr tape, i64 bytes): push where tapeEnsure has
  /// made room already (TapeRecords::checkCapacityPerEntry).
  llvm::Function *tapePushUnchecked();
  /// void ensure(ptr tape, i64 bytes): grows the buffer, if it must, so
  /// that bytes more fit; aborts where that cannot be allocated (as a push
  /// that must grow does).
  llvm::Function *tapeEnsure();
  /// ptr pop(ptr tape, i64 bytes): releases bytes, returns where to read.
  llvm::Function *tapePop();
  /// void reserve(ptr tape, i64 bytes): makes room for bytes more, exactly,
  /// if it can; pushes still check (see primal/TapeReservation.h). A
  /// request that would take the buffer past MaxTapeBytes is ignored.
  llvm::Function *tapeReserve();
  /// void free(ptr tape): empties the tape, keeping its buffer in the
  /// thread's cache where cachesTape() (the larger of it and the buffer
  /// already there), releasing it otherwise.
  llvm::Function *tapeFree();
  /// No allocation of more than 2^47 bytes (128 TiB, the user address space
  /// of x86-64 and AArch64 with 48-bit addresses) can succeed: a
  /// reservation asking for more is a loose bound, or a saturated one.
  static constexpr uint64_t MaxTapeBytes = uint64_t(1) << 47;
  /// Whether freed tape buffers are cached per thread on this target.
  bool cachesTape() const;
  /// Whether this is device code of a GPU: malloc and free, no realloc,
  /// calloc or abort (a trap instead).
  bool onGPU() const;
  /// Stores the empty tape into \p Tape (an alloca of tapeType()): on a GPU,
  /// one whose buffer is DeviceLocalTapeBytes of the thread's local memory,
  /// which grow and free tell from a heap buffer by its capacity.
  void initTape(llvm::IRBuilderBase &B, llvm::Value *Tape);
  static constexpr uint64_t DeviceLocalTapeBytes = 256;
  /// Ends the block at B: abort() on a host, a trap on a GPU.
  void emitAbort(llvm::IRBuilderBase &B);
  /// void stop(ptr message, i64 length), never returning: writes the
  /// message to standard error and aborts (a trap on a GPU). The plugin's
  /// own (__ad_stop), so that a function of the program's that is named
  /// like the C library's cannot stand in.
  llvm::Function *stopWithMessage();
  /// Calls stopWithMessage at B with \p Message.
  void emitStop(llvm::IRBuilderBase &B, llvm::StringRef Message);
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
  llvm::Value *allocateShadowOut(llvm::IRBuilderBase &B, llvm::Value *ShadowOut,
                                 llvm::Value *Align, llvm::Value *Size,
                                 llvm::Value *Status);

  /// GPU device code (DeviceRuntime.cpp): zeroes \p Bytes of block-shared
  /// memory at \p Shared, the block's threads each a part of it (every
  /// thread of the block must get here).
  void zeroBlockShared(llvm::IRBuilderBase &B, llvm::Value *Shared,
                       uint64_t Bytes);
  /// A barrier of the block's threads (__syncthreads).
  void blockBarrier(llvm::IRBuilderBase &B);

  /// OpenMP critical sections in reverse (TeamRuntime.cpp). Each lock has
  /// a turn counter; every entry into the section under the lock takes a
  /// ticket, and the reverse sweep runs the sections in the reverse order
  /// of their tickets, handing the counter back down to where it started.
  /// Independent gradients may run at once (each thread of a parallel
  /// loop its own): each differentiated region's team has a counter of its
  /// own, in its table of tapes, which teamTurnOfThread (thread-local) points
  /// to while a thread runs the region; the lock's counter serves outside.
  llvm::GlobalVariable *teamTurnOfThread();
  /// i64 ticket(ptr turn): the next ticket (called holding the lock).
  llvm::Function *teamTicket();
  /// void turnEnd(ptr turn, i64 ticket): nothing; where the section under
  /// the lock ends, the place its reverse starts, waiting its turn.
  llvm::Function *teamTurnEnd();
  /// void waitTurn(ptr turn, i64 ticket): waits until the sections with
  /// later tickets have been reversed (turn == ticket + 1).
  llvm::Function *teamWaitTurn();
  /// void passTurn(ptr turn, i64 ticket): the section with this ticket is
  /// reversed; the one before it may go (turn = ticket).
  llvm::Function *teamPassTurn();

  /// void sumPrivate(ptr dst, ptr firstBuffer, i64 stride, i32 threads,
  /// i64 begin, i64 end): dst[j] += buffer_u[j] for j in [begin, end)
  /// where buffer_u[j] is not zero, and
  /// each thread u's private shadow buffer_u of type \p Element, whose
  /// address is at firstBuffer + u * stride (OpenMP, PrivateShadows.h).
  llvm::Function *teamSumPrivate(llvm::Type *Element);

  /// libomp's i32 __kmpc_global_thread_num(ptr loc): the calling thread's
  /// id, which libomp's other entry points take.
  llvm::FunctionCallee ompGlobalThreadNum();

  /// i64 firstEqual(ptr first, i64 step, fp value): the least k such that
  /// the \p FPTy at first + k * step bytes equals value (ordered); the
  /// caller knows one does (primal/SelectReductions.cpp: the element a
  /// running extreme chose). __ad_first_equal.<type>, which reads memory and
  /// carries no derivative.
  llvm::Function *firstEqual(llvm::Type *FPTy);

  llvm::FunctionCallee calloc();
  llvm::FunctionCallee free();
  llvm::FunctionCallee mallocUsableSize();

private:
  /// The C library's function \p Name: a function of the module's own
  /// that has the name only here (a static write()) is renamed first, so
  /// that the declaration is the library's.
  llvm::FunctionCallee libraryFunction(llvm::StringRef Name,
                                       llvm::FunctionType *Ty);
  llvm::Function *getOrCreate(llvm::StringRef Name, llvm::FunctionType *Ty,
                              bool &Created);
  llvm::Function *tapeGrow();
  /// Marks \p F, a function without floating-point arithmetic that is
  /// always inlined (the tape's push, pop and ensure), as granting every
  /// function-wide floating-point permission, so that inlining it keeps the
  /// caller's.
  static void grantFloatingPointPermissions(llvm::Function &F);
  /// ptr Name(ptr tape, i64 bytes), always inlined: moves the tape's top by
  /// bytes, up (an unchecked push) or down (a pop), and returns the record.
  llvm::Function *topMover(llvm::StringRef Name, bool Up);
  /// void take(ptr tape): an empty tape (null data) takes the thread's
  /// cached buffer, if any.
  llvm::Function *tapeTake();
  /// i64 key(): the pthread key of the tape cache plus one, created on
  /// first use; 0 where there are none.
  llvm::Function *tapeCacheKey();
  /// The global that holds tapeCacheKey()'s result once created.
  llvm::GlobalVariable *tapeCacheKeySlot();
  /// A weak declaration of a pthread function (see TapeRuntime.cpp).
  llvm::FunctionCallee pthread(llvm::StringRef Name, llvm::Type *Ret,
                               llvm::ArrayRef<llvm::Type *> Params);
  /// At B, in free: keeps the buffer \p Data of \p Cap bytes in the cache
  /// (then branches to \p Done) or branches to \p Release to free it.
  void emitCacheBuffer(llvm::IRBuilderBase &B, llvm::Value *Data,
                       llvm::Value *Cap, llvm::BasicBlock *Release,
                       llvm::BasicBlock *Done);
  /// realloc(tape->data, Capacity), the new buffer or null.
  llvm::Value *reallocBuffer(llvm::IRBuilderBase &B, llvm::Value *Tape,
                             llvm::Value *Capacity);
  /// GPU: frees \p Data when it is a heap buffer (capacity \p Cap above the
  /// thread's local buffer's), then branches to \p Done.
  void emitFreeHeapBuffer(llvm::IRBuilderBase &B, llvm::Value *Data,
                          llvm::Value *Cap, llvm::BasicBlock *Done);
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
