// A shared-memory tree reduction with __syncthreads, in float and double:
// each block sums its slice of the input (the last one partial) into a
// static __shared__ array, halving the active threads each step; one sum
// per block, against a host loop. A second kernel reads its neighbour's
// element after a barrier (a rotation), which a missing barrier breaks too.
// runner_faults.cu runs this program with barriers turned off.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: shared_reduction: 0 failures

#include "Inputs/check.h"

const int Threads = 256;

template <typename T>
__global__ void block_sums(const T *in, T *sums, int n) {
  __shared__ T buf[Threads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = buf[0];
}

// out[i] = in of the next thread of the block (cyclically), through shared
// memory; every thread reads what another wrote before the barrier.
__global__ void rotate(const float *in, float *out) {
  __shared__ float tile[Threads];
  int base = blockIdx.x * blockDim.x;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

template <typename T> void test_sums(const char *name, double tol) {
  const int n = 1800, blocks = (n + Threads - 1) / Threads;
  T host[n], sums[blocks];
  for (int i = 0; i < n; ++i)
    host[i] = T(1) / (1 + i % 17) - T(0.25);
  T *in, *out;
  CUDA_OK(cudaMalloc(&in, sizeof host));
  CUDA_OK(cudaMalloc(&out, sizeof sums));
  CUDA_OK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  block_sums<<<blocks, Threads>>>(in, out, n);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    double want = 0;
    for (int i = b * Threads; i < n && i < (b + 1) * Threads; ++i)
      want += host[i];
    check_close(name, b, sums[b], want, tol);
  }
  CUDA_OK(cudaFree(in));
  CUDA_OK(cudaFree(out));
}

int main() {
  test_sums<float>("block_sums<float>", 1e-5);
  test_sums<double>("block_sums<double>", 1e-13);

  const int blocks = 2, n = blocks * Threads;
  float host[n], result[n], *in, *out;
  for (int i = 0; i < n; ++i)
    host[i] = float(i);
  CUDA_OK(cudaMalloc(&in, sizeof host));
  CUDA_OK(cudaMalloc(&out, sizeof host));
  CUDA_OK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  rotate<<<blocks, Threads>>>(in, out);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    check_close("rotate", i, result[i],
                host[i / Threads * Threads + (i + 1) % Threads], 0);
  CUDA_OK(cudaFree(in));
  CUDA_OK(cudaFree(out));
  return report("shared_reduction");
}
