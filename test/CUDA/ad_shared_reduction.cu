// Reverse mode through a shared-memory tree reduction with __syncthreads:
// each thread squares its x[i] into a __shared__ array, the block halves it
// to a sum, and every thread returns the sum scaled by its own weight
// 1/(t+1). The shadow of the __shared__ array is zeroed by the block before
// the derivative, the barriers are mirrored in the reverse sweep, and the
// adjoint of s[0] (read by every thread) is accumulated atomically: dx_i =
// 2 x_i * sum_t 1/(t+1) over the block's threads. Double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run %s -O3 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_90 -O3 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 -O0 -c %s -o %t.o
// CHECK: ad_shared_reduction: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

const int Threads = 128;

template <typename T> __device__ T block_sum(const T *x) {
  __shared__ T s[Threads];
  int t = threadIdx.x;
  T v = x[blockIdx.x * blockDim.x + t];
  s[t] = v * v;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      s[t] += s[t + st];
    __syncthreads();
  }
  return s[0] / T(t + 1);
}

template <typename T> __global__ void grad(const T *x, T *dx) {
  __ad_autodiff_void((void *)block_sum<T>, __ad_dup, x, dx);
}

template <typename T> void run(const char *name) {
  const int blocks = 5, n = blocks * Threads;
  T hx[n], hdx[n];
  for (int i = 0; i < n; ++i)
    hx[i] = T(std::sin(0.37 * i));
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n);
  grad<T><<<blocks, Threads>>>(x, dx);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  double weights = 0;
  for (int t = 0; t < Threads; ++t)
    weights += 1.0 / (t + 1);
  for (int i = 0; i < n; ++i)
    check_close(name, i, hdx[i], 2 * double(hx[i]) * weights,
                100 * Tol<T>::exact);
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_shared_reduction");
}
