// atomicAdd in the differentiated function: every thread adds x_i^2 * c_i
// into one of four bins (bin i % 4), which all threads share. Reverse mode: the added value's adjoint is the bin's (seeded with
// 1, 2, 3, 4), dx_i = 2 x_i c_i (1 + i % 4). Forward mode: the bins'
// tangents accumulate atomically, dbin_b = sum over i in b of 2 x_i c_i v_i.
// Double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run %s -O3 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_atomic_add: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T> __device__ void bins(const T *x, T *bin) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T c = T(1) + T(i % 7) / T(8);
  atomicAdd(&bin[i % 4], x[i] * x[i] * c);
}

template <typename T> __global__ void grad(const T *x, T *dx, T *bin, T *dbin) {
  __ad_autodiff_void((void *)bins<T>, __ad_dup, x, dx, __ad_dup, bin, dbin);
}
template <typename T>
__global__ void tangent(const T *x, T *v, T *bin, T *tbin) {
  __ad_fwddiff_void((void *)bins<T>, __ad_dup, x, v, __ad_dup, bin, tbin);
}

template <typename T> void run(const char *name) {
  const int n = 512;
  T hx[n], hdx[n], hv[n], hbin[4], seed[4] = {1, 2, 3, 4};
  for (int i = 0; i < n; ++i) {
    hx[i] = T(std::cos(0.11 * i));
    hv[i] = T(1 + (i % 3));
  }
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n);
  T *bin = zeros_on_device<T>(4), *dbin = to_device(seed, 4);
  grad<T><<<4, 128>>>(x, dx, bin, dbin);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(hbin, bin, 4);
  double want_bin[4] = {0, 0, 0, 0}, want_t[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    double c = 1 + double(i % 7) / 8, xi = hx[i];
    want_bin[i % 4] += xi * xi * c;
    want_t[i % 4] += 2 * xi * c * double(hv[i]);
    check_close(name, i, hdx[i], 2 * xi * c * (1 + i % 4), Tol<T>::exact);
  }
  for (int b = 0; b < 4; ++b)
    check_close(name, 1000 + b, hbin[b], want_bin[b], 100 * Tol<T>::exact);
  T *v = to_device(hv, n), *tbin = zeros_on_device<T>(4), htbin[4];
  CUDA_OK(cudaMemset(bin, 0, sizeof(T) * 4));
  tangent<T><<<4, 128>>>(x, v, bin, tbin);
  LAUNCH_OK();
  to_host(htbin, tbin, 4);
  for (int b = 0; b < 4; ++b)
    check_close(name, 2000 + b, htbin[b], want_t[b], 100 * Tol<T>::exact);
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_atomic_add");
}
