// Dynamic shared memory: `extern __shared__` arrays sized by the launch's
// third <<<>>> argument. Each block reverses its slice through a float
// array; a second kernel carves a double and an int array out of the one
// dynamic buffer (as CUDA code does, since every extern __shared__ array
// starts at the same address). Two launches of different sizes.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: dynamic_shared: 0 failures

#include "Inputs/check.h"

extern __shared__ float dyn_f[];

__global__ void reverse_blocks(const float *in, float *out) {
  int base = blockIdx.x * blockDim.x;
  dyn_f[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = dyn_f[blockDim.x - 1 - threadIdx.x];
}

__global__ void two_arrays(const double *in, double *out) {
  extern __shared__ double dyn_d[];
  int *counts = reinterpret_cast<int *>(dyn_d + blockDim.x);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dyn_d[threadIdx.x] = in[i] * 2;
  counts[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int j = (threadIdx.x + 3) % blockDim.x;
  out[i] = dyn_d[j] + counts[j];
}

int main() {
  for (int threads : {64, 160}) {
    const int blocks = 3, n = blocks * threads;
    float host[512], result[512], *in, *out;
    for (int i = 0; i < n; ++i)
      host[i] = i * 0.5f;
    CUDA_OK(cudaMalloc(&in, n * sizeof(float)));
    CUDA_OK(cudaMalloc(&out, n * sizeof(float)));
    CUDA_OK(cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice));
    reverse_blocks<<<blocks, threads, threads * sizeof(float)>>>(in, out);
    LAUNCH_OK();
    CUDA_OK(cudaMemcpy(result, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int b = i / threads, t = i % threads;
      check_close("reverse", i, result[i], host[b * threads + threads - 1 - t],
                  0);
    }
    CUDA_OK(cudaFree(in));
    CUDA_OK(cudaFree(out));
  }

  const int threads = 128, blocks = 2, n = threads * blocks;
  double host[n], result[n], *in, *out;
  for (int i = 0; i < n; ++i)
    host[i] = 1.0 / (i + 3);
  CUDA_OK(cudaMalloc(&in, sizeof host));
  CUDA_OK(cudaMalloc(&out, sizeof host));
  CUDA_OK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  two_arrays<<<blocks, threads, threads * (sizeof(double) + sizeof(int))>>>(
      in, out);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int b = i / threads, j = (i % threads + 3) % threads;
    check_close("two_arrays", i, result[i], host[b * threads + j] * 2 + j,
                1e-15);
  }
  return report("dynamic_shared");
}
