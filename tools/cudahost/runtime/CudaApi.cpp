//===- CudaApi.cpp - The CUDA runtime API a CPU-run CUDA program calls ----===//
//
// The host side of a program cuda-host-run builds calls the CUDA runtime as
// a real build does: clang turns `k<<<grid, block, shared>>>(args)` into
// __cudaPushCallConfiguration, then k's stub, which pops the configuration
// and calls cudaLaunchKernel with the stub as the kernel handle. Here device
// memory is host memory, a launch runs to completion before cudaLaunchKernel
// returns (so every stream is synchronous), and the handle is mapped to the
// lowered kernel through the names both sides register (HostStubs.cpp,
// DeviceLowering.cpp). Errors follow CUDA: a bad launch configuration makes
// the launch fail with cudaErrorInvalidConfiguration, which
// cudaGetLastError returns once and cudaPeekAtLastError keeps.
//
// Functions a test does not need are not defined: a program that calls one
// fails to link, which names it.
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using namespace cudahost;

namespace {

struct CallConfiguration {
  dim3 Grid, Block;
  size_t Shared;
  cudaStream_t Stream;
};

std::map<std::string, CudaHostKernelEntry> &entries() {
  static std::map<std::string, CudaHostKernelEntry> Entries;
  return Entries;
}

std::map<const void *, std::string> &stubs() {
  static std::map<const void *, std::string> Stubs;
  return Stubs;
}

struct Variable {
  char *Storage;
  size_t Bytes;
};

std::map<std::string, Variable> &variables() {
  static std::map<std::string, Variable> Variables;
  return Variables;
}

std::map<const void *, std::string> &shadows() {
  static std::map<const void *, std::string> Shadows;
  return Shadows;
}

/// The device variable whose host shadow is Symbol, or null.
Variable *variableOf(const void *Symbol) {
  auto Shadow = shadows().find(Symbol);
  if (Shadow == shadows().end())
    return nullptr;
  auto V = variables().find(Shadow->second);
  return V == variables().end() ? nullptr : &V->second;
}

/// What cudaMalloc handed out and cudaFree has not taken back. At exit the
/// rest is freed, as a GPU context's teardown frees it, so that a leak
/// checker (cuda-host-run under valgrind) reports only the leaks of host
/// code and of device code's own malloc.
struct AllocationTable {
  std::set<void *> Live;
  ~AllocationTable() {
    for (void *P : Live)
      free(P);
  }
};
AllocationTable Allocations;
std::mutex AllocationLock; // host threads may allocate concurrently
std::mutex LaunchLock;
thread_local std::vector<CallConfiguration> Configurations;
thread_local cudaError_t LastError = cudaSuccess;

cudaError_t fail(cudaError_t Error) {
  LastError = Error;
  return Error;
}

bool validConfiguration(dim3 Grid, dim3 Block, size_t Shared) {
  size_t Threads = size_t(Block.x) * Block.y * Block.z;
  return Block.x && Block.y && Block.z && Block.x <= 1024 && Block.y <= 1024 &&
         Block.z <= 64 && Threads <= 1024 && Grid.x && Grid.y && Grid.z &&
         Grid.x < (1u << 31) && Grid.y < 65536 && Grid.z < 65536 &&
         Shared <= CUDAHOST_DYNAMIC_SHARED_BYTES;
}

cudaError_t allocate(void **Ptr, size_t Bytes) {
  if (!Ptr)
    return fail(cudaErrorInvalidValue);
  // cudaMalloc's alignment, and no padding, so that valgrind sees an access
  // past the end.
  if (posix_memalign(Ptr, 256, Bytes ? Bytes : 1) != 0)
    *Ptr = nullptr;
  if (!*Ptr)
    return fail(cudaErrorMemoryAllocation);
  std::lock_guard<std::mutex> Guard(AllocationLock);
  Allocations.Live.insert(*Ptr);
  return cudaSuccess;
}

cudaError_t release(void *Ptr) {
  if (!Ptr)
    return cudaSuccess;
  {
    std::lock_guard<std::mutex> Guard(AllocationLock);
    if (!Allocations.Live.erase(Ptr))
      return fail(cudaErrorInvalidValue);
  }
  free(Ptr);
  return cudaSuccess;
}

} // namespace

extern "C" {

void __cudahost_register_kernel(const char *Name, CudaHostKernelEntry Entry) {
  entries()[Name] = Entry;
}

void __cudahost_register_shared(void *Storage, size_t Bytes) {
  registerSharedArray(Storage, Bytes);
}

void __cudahost_register_stub(const void *Stub, const char *KernelName) {
  stubs()[Stub] = KernelName;
}

void __cudahost_register_variable(const char *Name, void *Storage,
                                  size_t Bytes) {
  variables()[Name] = {static_cast<char *>(Storage), Bytes};
}

void __cudahost_register_shadow(const void *Shadow, const char *Name) {
  shadows()[Shadow] = Name;
}

unsigned __cudaPushCallConfiguration(dim3 Grid, dim3 Block, size_t Shared = 0,
                                     cudaStream_t Stream = nullptr) {
  Configurations.push_back({Grid, Block, Shared, Stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *Grid, dim3 *Block, size_t *Shared,
                                       cudaStream_t *Stream) {
  if (Configurations.empty())
    return cudaErrorInvalidConfiguration;
  CallConfiguration C = Configurations.back();
  Configurations.pop_back();
  *Grid = C.Grid;
  *Block = C.Block;
  *Shared = C.Shared;
  *Stream = C.Stream;
  return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid, dim3 Block,
                             void **Args, size_t Shared, cudaStream_t) {
  auto Stub = stubs().find(Func);
  if (Stub == stubs().end())
    return fail(cudaErrorInvalidDeviceFunction);
  auto Entry = entries().find(Stub->second);
  if (Entry == entries().end()) {
    fprintf(stderr, "cuda-host-run: kernel %s has no lowered device code\n",
            Stub->second.c_str());
    return fail(cudaErrorInvalidDeviceFunction);
  }
  if (!validConfiguration(Grid, Block, Shared))
    return fail(cudaErrorInvalidConfiguration);
  std::lock_guard<std::mutex> Guard(LaunchLock);
  runGrid(Entry->second, Stub->second.c_str(), {Grid.x, Grid.y, Grid.z},
          {Block.x, Block.y, Block.z}, Shared, Args);
  return cudaSuccess;
}

cudaError_t cudaMalloc(void **Ptr, size_t Bytes) {
  return allocate(Ptr, Bytes);
}

cudaError_t cudaMallocManaged(void **Ptr, size_t Bytes, unsigned) {
  return allocate(Ptr, Bytes);
}

cudaError_t cudaMallocHost(void **Ptr, size_t Bytes) {
  return allocate(Ptr, Bytes);
}

cudaError_t cudaFree(void *Ptr) { return release(Ptr); }

cudaError_t cudaFreeHost(void *Ptr) { return release(Ptr); }

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Bytes,
                       cudaMemcpyKind) {
  if (Bytes && (!Dst || !Src))
    return fail(cudaErrorInvalidValue);
  memmove(Dst, Src, Bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Bytes,
                            cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpy(Dst, Src, Bytes, Kind);
}

cudaError_t cudaMemset(void *Ptr, int Value, size_t Bytes) {
  if (Bytes && !Ptr)
    return fail(cudaErrorInvalidValue);
  memset(Ptr, Value, Bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *Ptr, int Value, size_t Bytes, cudaStream_t) {
  return cudaMemset(Ptr, Value, Bytes);
}

cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Bytes, size_t Offset, cudaMemcpyKind) {
  Variable *V = variableOf(Symbol);
  if (!V)
    return fail(cudaErrorInvalidSymbol);
  if (Offset + Bytes > V->Bytes)
    return fail(cudaErrorInvalidValue);
  memmove(V->Storage + Offset, Src, Bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Bytes,
                                 size_t Offset, cudaMemcpyKind) {
  Variable *V = variableOf(Symbol);
  if (!V)
    return fail(cudaErrorInvalidSymbol);
  if (Offset + Bytes > V->Bytes)
    return fail(cudaErrorInvalidValue);
  memmove(Dst, V->Storage + Offset, Bytes);
  return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **Ptr, const void *Symbol) {
  Variable *V = variableOf(Symbol);
  if (!V)
    return fail(cudaErrorInvalidSymbol);
  *Ptr = V->Storage;
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *Bytes, const void *Symbol) {
  Variable *V = variableOf(Symbol);
  if (!V)
    return fail(cudaErrorInvalidSymbol);
  *Bytes = V->Bytes;
  return cudaSuccess;
}

// Launches finish before cudaLaunchKernel returns: nothing is pending.
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
cudaError_t cudaSetDevice(int Device) {
  return Device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDevice(int *Device) {
  *Device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int *Count) {
  *Count = 1;
  return cudaSuccess;
}

// Device limits are kept and reported back; none constrains the host (device
// malloc is the host's, its heap unbounded), but a program that raises the
// device heap for its tapes (docs/CUDA.md) runs unchanged.
static size_t DeviceLimits[8] = {1024, 1024, 8u << 20, 2, 2048, 0, 0, 0};
cudaError_t cudaDeviceSetLimit(enum cudaLimit Limit, size_t Value) {
  if (unsigned(Limit) >= 8)
    return fail(cudaErrorUnsupportedLimit);
  DeviceLimits[Limit] = Value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *Value, enum cudaLimit Limit) {
  if (unsigned(Limit) >= 8)
    return fail(cudaErrorUnsupportedLimit);
  *Value = DeviceLimits[Limit];
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}

cudaError_t cudaPeekAtLastError(void) { return LastError; }

const char *cudaGetErrorName(cudaError_t Error) {
  switch (Error) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorInvalidSymbol:
    return "cudaErrorInvalidSymbol";
  default:
    return "cudaErrorUnknown";
  }
}

const char *cudaGetErrorString(cudaError_t Error) {
  switch (Error) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorInvalidDeviceFunction:
    return "invalid device function";
  case cudaErrorInvalidSymbol:
    return "invalid device symbol";
  default:
    return "unknown error";
  }
}

// Events time the synchronous launches with the host's clock.
cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  *Event = reinterpret_cast<cudaEvent_t>(new double(0));
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t) {
  using namespace std::chrono;
  *reinterpret_cast<double *>(Event) =
      duration<double, std::milli>(steady_clock::now().time_since_epoch())
          .count();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }

cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                 cudaEvent_t End) {
  *Ms = float(*reinterpret_cast<double *>(End) -
              *reinterpret_cast<double *>(Start));
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  delete reinterpret_cast<double *>(Event);
  return cudaSuccess;
}

} // extern "C"
