// What the runner checks beyond the results: shared memory starts as NaN
// (0xff bytes) in every block, static and dynamic, so a kernel (or a
// derivative's shadow array) that reads it before writing it shows; under
// valgrind (the suite runs the programs under it when it is installed), a
// kernel's access past the end of a cudaMalloc'd buffer and device memory
// that device code malloc'ed and never freed are errors.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: static shared: 64 of 64 NaN in block 0, 64 of 64 in block 1
// CHECK: dynamic shared: 64 of 64 NaN in block 0, 64 of 64 in block 1
// RUN: %if valgrind %{ not %cuda_host_run %s -O2 -DOVERFLOW 2>&1 | FileCheck %s --check-prefix=OVERFLOW %}
// RUN: %if valgrind %{ not %cuda_host_run %s -O2 -DLEAK 2>&1 | FileCheck %s --check-prefix=LEAK %}
// OVERFLOW: Invalid write of size 4
// LEAK: 64 bytes in 1 blocks are definitely lost

#include "Inputs/check.h"

// `n` is the block size, so no thread writes; the compiler cannot know.
__global__ void read_static(float *out, int n) {
  __shared__ float s[64];
  if (threadIdx.x >= n)
    s[threadIdx.x - n] = 1;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
  __syncthreads();
  s[threadIdx.x] = 2; // block 1 must not see block 0's values
}

__global__ void read_dynamic(float *out) {
  extern __shared__ float d[];
  out[blockIdx.x * blockDim.x + threadIdx.x] = d[threadIdx.x];
  __syncthreads();
  d[threadIdx.x] = 2;
}

__global__ void overflow(float *x, int n) { x[n + threadIdx.x] = 1; }

// Device memory nothing frees: its only pointer is in device memory that
// goes away at exit, as a forgotten tape would.
__global__ void leak(float **kept) {
  float *p = static_cast<float *>(malloc(64));
  p[0] = 1;
  kept[0] = p;
}

void count_nan(const char *what, const float *host) {
  int nan[2] = {0, 0};
  for (int i = 0; i < 128; ++i)
    nan[i / 64] += std::isnan(host[i]);
  printf("%s: %d of 64 NaN in block 0, %d of 64 in block 1\n", what, nan[0],
         nan[1]);
}

int main() {
  float *out, host[128];
  CUDA_OK(cudaMalloc(&out, sizeof host));
  read_static<<<2, 64>>>(out, 64);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  count_nan("static shared", host);
  read_dynamic<<<2, 64, 64 * sizeof(float)>>>(out);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  count_nan("dynamic shared", host);
#ifdef OVERFLOW
  overflow<<<1, 4>>>(out, 128);
#endif
#ifdef LEAK
  float **kept;
  CUDA_OK(cudaMalloc(&kept, sizeof(float *)));
  leak<<<1, 1>>>(kept);
#endif
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaFree(out));
  return 0;
}
