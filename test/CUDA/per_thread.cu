// A per-thread kernel in float and double: y[i] = a * x[i] + y[i] over a
// grid whose last block is partial, and a grid-stride loop over more
// elements than the grid has threads; results against a host loop.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: per_thread: 0 failures

#include "Inputs/check.h"

template <typename T> __global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// Each thread handles every (gridDim.x * blockDim.x)-th element.
__global__ void squares(double *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = double(i) * i + blockIdx.x;
}

template <typename T> void test_axpy(const char *name, double tol) {
  const int n = 1000;
  T hx[n], hy[n], out[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(0.5) + T(i) / 7;
    hy[i] = T(3) - T(i) / 11;
  }
  T *x, *y;
  CUDA_OK(cudaMalloc(&x, sizeof hx));
  CUDA_OK(cudaMalloc(&y, sizeof hy));
  CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
  axpy<<<(n + 127) / 128, 128>>>(T(2.5), x, y, n);
  LAUNCH_OK();
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(out, y, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    check_close(name, i, out[i], T(2.5) * hx[i] + hy[i], tol);
  CUDA_OK(cudaFree(x));
  CUDA_OK(cudaFree(y));
}

int main() {
  test_axpy<float>("axpy<float>", 1e-6);
  test_axpy<double>("axpy<double>", 1e-15);

  const int n = 5000, blocks = 3, threads = 96;
  double *out, host[n];
  CUDA_OK(cudaMalloc(&out, sizeof host));
  squares<<<blocks, threads>>>(out, n);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    check_close("squares", i, host[i],
                double(i) * i + i % (blocks * threads) / threads, 0);
  CUDA_OK(cudaFree(out));
  return report("per_thread");
}
