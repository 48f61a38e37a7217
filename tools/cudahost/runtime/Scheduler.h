//===- Scheduler.h - Running a grid's GPU threads as fibers ---------------===//
//
// The part of the runtime that executes a launch (Scheduler.cpp); the CUDA
// API (CudaApi.cpp) validates a launch and calls runGrid.
//
//===----------------------------------------------------------------------===//

#ifndef CUDAHOST_SCHEDULER_H
#define CUDAHOST_SCHEDULER_H

#include "../CudaHostABI.h"

#include <cstddef>

namespace cudahost {

struct Dim3 {
  unsigned X, Y, Z;
  size_t count() const { return size_t(X) * Y * Z; }
};

/// Runs every block of the grid, one after another, each block's threads
/// as fibers of the calling thread. Kernel is the name diagnostics use.
void runGrid(CudaHostKernelEntry Entry, const char *Kernel, Dim3 Grid,
             Dim3 Block, size_t SharedBytes, void **Args);

/// A static `__shared__` array, filled with 0xff before each block.
void registerSharedArray(void *Storage, size_t Bytes);

} // namespace cudahost

#endif // CUDAHOST_SCHEDULER_H
