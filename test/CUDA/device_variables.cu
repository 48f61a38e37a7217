// __device__ and __constant__ variables: polynomial coefficients in
// __constant__ memory set by cudaMemcpyToSymbol, a __device__ counter that
// every thread increments atomically and the host reads back with
// cudaMemcpyFromSymbol, an initialized __device__ scale, and
// cudaGetSymbolAddress; a host pointer that names no device variable is
// cudaErrorInvalidSymbol.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: not a symbol: invalid device symbol
// CHECK: device_variables: 0 failures

#include "Inputs/check.h"

const int Degree = 5;
__constant__ double coeffs[Degree + 1];
__device__ int counter;
__device__ double scale = 2.5;

__global__ void horner(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double p = 0;
  for (int k = Degree; k >= 0; --k)
    p = p * x[i] + coeffs[k];
  y[i] = scale * p;
  atomicAdd(&counter, 1);
}

int main() {
  const int n = 100;
  double hc[Degree + 1] = {1, -2, 0.5, 3, -0.25, 0.125};
  double hx[n], hy[n], *x, *y;
  for (int i = 0; i < n; ++i)
    hx[i] = -1 + 2.0 * i / n;
  CUDA_OK(cudaMemcpyToSymbol(coeffs, hc, sizeof hc));
  int zero = 0, count;
  CUDA_OK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  CUDA_OK(cudaMalloc(&x, sizeof hx));
  CUDA_OK(cudaMalloc(&y, sizeof hy));
  CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  horner<<<(n + 31) / 32, 32>>>(x, y, n);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpyFromSymbol(&count, counter, sizeof count));
  for (int i = 0; i < n; ++i) {
    double p = 0;
    for (int k = Degree; k >= 0; --k)
      p = p * hx[i] + hc[k];
    check_close("horner", i, hy[i], 2.5 * p, 1e-15);
  }
  check_equal("counter", 0, count, n);
  double *scale_ptr, s;
  CUDA_OK(cudaGetSymbolAddress((void **)&scale_ptr, scale));
  CUDA_OK(cudaMemcpy(&s, scale_ptr, sizeof s, cudaMemcpyDeviceToHost));
  check_close("scale", 0, s, 2.5, 0);
  static double not_a_symbol;
  printf("not a symbol: %s\n",
         cudaGetErrorString(cudaMemcpyToSymbol(not_a_symbol, &s, sizeof s)));
  return report("device_variables");
}
