// The runner makes unsynchronized read-modify-writes lose updates, as a GPU
// can: every thread adds into one float with a plain `+=` (the bug of an
// adjoint accumulated without an atomic), and the total comes out short;
// the same sum with atomicAdd is exact. The scheduler lets another thread
// run before each store to shared or global memory; without that
// (CUDA_HOST_RUN_YIELD=0) each thread would run from barrier to barrier and
// the race would never show.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: env CUDA_HOST_RUN_YIELD=0 %cuda_host_run %s -O2 | FileCheck %s --check-prefix=NOYIELD
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: plain += lost updates: yes
// CHECK: atomicAdd lost updates: no
// NOYIELD: plain += lost updates: no

#include "Inputs/check.h"

__global__ void sum_plain(float *total) { *total += 1.0f; }
__global__ void sum_atomic(float *total) { atomicAdd(total, 1.0f); }

int main() {
  const int blocks = 4, threads = 128;
  float *total, plain, atomic;
  CUDA_OK(cudaMalloc(&total, sizeof(float)));
  CUDA_OK(cudaMemset(total, 0, sizeof(float)));
  sum_plain<<<blocks, threads>>>(total);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(&plain, total, sizeof plain, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemset(total, 0, sizeof(float)));
  sum_atomic<<<blocks, threads>>>(total);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(&atomic, total, sizeof atomic, cudaMemcpyDeviceToHost));
  printf("plain += lost updates: %s (%g of %d)\n",
         plain < blocks * threads ? "yes" : "no", plain, blocks * threads);
  printf("atomicAdd lost updates: %s (%g of %d)\n",
         atomic < blocks * threads ? "yes" : "no", atomic, blocks * threads);
  return 0;
}
