//===- CudaHostABI.h - What lowered device code and the runtime share -----===//
//
// cuda-host-run compiles a CUDA program's device module (NVPTX IR, after the
// AD plugin ran) for the host: DeviceLowering.cpp rewrites what only a GPU
// has into calls of the runtime (runtime/), and HostStubs.cpp makes the host
// module register its kernel stubs. This header is the contract between the
// two sides: the runtime's entry points and the layout of the state of the
// running GPU thread. Keep the two in step: the pass writes these names into
// IR, the runtime defines them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDAHOST_ABI_H
#define CUDAHOST_ABI_H

// The special registers of the running thread, as 32-bit words at
// `__cudahost_current + 4 * index`. Lowered device code reads them with a
// load, so a read of threadIdx costs what it costs on a GPU.
enum CudaHostSreg {
  CUDAHOST_TID_X,
  CUDAHOST_TID_Y,
  CUDAHOST_TID_Z,
  CUDAHOST_NTID_X,
  CUDAHOST_NTID_Y,
  CUDAHOST_NTID_Z,
  CUDAHOST_CTAID_X,
  CUDAHOST_CTAID_Y,
  CUDAHOST_CTAID_Z,
  CUDAHOST_NCTAID_X,
  CUDAHOST_NCTAID_Y,
  CUDAHOST_NCTAID_Z,
  CUDAHOST_LANEID,
  CUDAHOST_WARPID,
  CUDAHOST_NWARPID,
  CUDAHOST_LANEMASK_EQ,
  CUDAHOST_LANEMASK_LT,
  CUDAHOST_LANEMASK_LE,
  CUDAHOST_LANEMASK_GT,
  CUDAHOST_LANEMASK_GE,
  CUDAHOST_SREG_COUNT
};

// Modes of __cudahost_shfl (PTX shfl.sync's .idx, .up, .down, .bfly).
enum CudaHostShuffleMode {
  CUDAHOST_SHFL_IDX,
  CUDAHOST_SHFL_UP,
  CUDAHOST_SHFL_DOWN,
  CUDAHOST_SHFL_BFLY
};

// Modes of __cudahost_vote (vote.sync's .all, .any, .uni, .ballot).
enum CudaHostVoteMode {
  CUDAHOST_VOTE_ALL,
  CUDAHOST_VOTE_ANY,
  CUDAHOST_VOTE_UNI,
  CUDAHOST_VOTE_BALLOT
};

// Reductions of __cudahost_barrier_reduce (__syncthreads_count/_and/_or).
enum CudaHostBarrierReduction {
  CUDAHOST_RED_POPC,
  CUDAHOST_RED_AND,
  CUDAHOST_RED_OR
};

// Bytes of dynamic shared memory (`extern __shared__`) one block may use:
// the most an H100 or H200 block can opt into (227 KiB).
#define CUDAHOST_DYNAMIC_SHARED_BYTES (227 * 1024)

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
extern "C" {
#else
#include <stddef.h>
#include <stdint.h>
#endif

// The registers of the running GPU thread (CudaHostSreg words).
extern uint32_t *__cudahost_current;
// What every `extern __shared__` array of every kernel lowers to.
extern char __cudahost_dynamic_shared[CUDAHOST_DYNAMIC_SHARED_BYTES];

typedef void (*CudaHostKernelEntry)(void **Args);

// Registration, from the constructors the two passes emit.
void __cudahost_register_kernel(const char *Name, CudaHostKernelEntry Entry);
void __cudahost_register_shared(void *Storage, size_t Bytes);
void __cudahost_register_stub(const void *Stub, const char *KernelName);
void __cudahost_register_variable(const char *Name, void *Storage,
                                  size_t Bytes);
void __cudahost_register_shadow(const void *Shadow, const char *Name);

// What lowered device code calls.
void __cudahost_barrier(void);
void __cudahost_barrier_count(uint32_t Count);
uint32_t __cudahost_barrier_reduce(uint32_t Reduction, uint32_t Predicate);
void __cudahost_syncwarp(uint32_t Mask);
uint64_t __cudahost_shfl(uint32_t Mode, uint32_t Mask, uint32_t Value,
                         uint32_t Lane, uint32_t Clamp);
uint32_t __cudahost_vote(uint32_t Mode, uint32_t Mask, uint32_t Predicate);
uint32_t __cudahost_activemask(void);
void __cudahost_yield(void);
uint32_t __cudahost_prmt(uint32_t A, uint32_t B, uint32_t Selector);
uint64_t __cudahost_clock64(void);
uint64_t __cudahost_globaltimer(void);
int __cudahost_vprintf(const char *Format, const char *Args);
void __cudahost_assertfail(const char *Message, const char *File, uint32_t Line,
                           const char *Function, size_t CharSize);

#ifdef __cplusplus
}
#endif

#endif // CUDAHOST_ABI_H
