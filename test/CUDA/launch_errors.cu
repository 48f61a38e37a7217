// What a GPU reports, the runner reports: a launch with too many threads
// per block fails with cudaErrorInvalidConfiguration (cudaGetLastError
// returns it once); device printf prints. And what a GPU would hang or trap
// on stops the program with a message: a __syncthreads that only some
// threads reach (-DDEADLOCK), a failed device assert (-DASSERT).
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: not %cuda_host_run %s -O2 -DDEADLOCK 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: not %cuda_host_run %s -O2 -DASSERT 2>&1 | FileCheck %s --check-prefix=ASSERT
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: too many threads: invalid configuration argument
// CHECK-NEXT: then: no error
// CHECK: thread 3 of block 1: 2.5 7 x
// CHECK: launch_errors: 0 failures
// DEADLOCK: cuda-host-run: kernel _Z8divergedv, block (0,0,0): deadlock: 16 threads wait at a barrier and 16 at a warp operation, 32 have exited
// ASSERT: device-side assertion `threadIdx.x != 5' failed

#include "Inputs/check.h"
#include <cassert>

__global__ void hello() {
  if (threadIdx.x == 3 && blockIdx.x == 1)
    printf("thread %d of block %d: %.1f %ld %c\n", threadIdx.x, blockIdx.x,
           2.5f, 7L, 'x');
}

// Lanes 0-15 wait at the barrier for lanes 16-31, which wait at
// __syncwarp for lanes 0-15. (Threads that exit do not hold a barrier up,
// as on a GPU: the second warp's exit releases nothing here.)
__global__ void diverged() {
  if (threadIdx.x < 16)
    __syncthreads();
  else
    __syncwarp();
}

__global__ void asserts() { assert(threadIdx.x != 5); }

int main() {
  hello<<<1, 2048>>>();
  printf("too many threads: %s\n", cudaGetErrorString(cudaGetLastError()));
  printf("then: %s\n", cudaGetErrorString(cudaGetLastError()));
  hello<<<2, 8>>>();
  LAUNCH_OK();
  CUDA_OK(cudaDeviceSynchronize());
#ifdef DEADLOCK
  diverged<<<1, 64>>>();
#endif
#ifdef ASSERT
  asserts<<<1, 32>>>();
#endif
  return report("launch_errors");
}
