// Divergent control flow inside a warp: each thread takes a branch on its
// own data (three kinds of update), and loops a thread-dependent number of
// times (1 + i % 5). Reverse mode against central finite differences and
// forward mode, in double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run %s -O1 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_divergent: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T> __host__ __device__ T path(T x, int i) {
  T s = x;
  for (int k = 0; k <= i % 5; ++k) {
    if (s > T(0.5))
      s = s * s - T(0.25);
    else if (s > T(-0.3))
      s = sin(s) + T(0.1) * k;
    else
      s = exp(s) * T(0.7);
  }
  return s;
}

template <typename T> __device__ T f(const T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  return path(x[i], i);
}

template <typename T> __global__ void grad(const T *x, T *dx, T *v, T *t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __ad_autodiff_void((void *)f<T>, __ad_dup, x, dx);
  if (sizeof(T) == 8)
    t[i] = __ad_fwddiff((void *)f<T>, __ad_dup, x, v);
  else
    t[i] = __ad_fwddiff_float((void *)f<T>, __ad_dup, x, v);
}

template <typename T> void run(const char *name) {
  const int n = 320;
  T hx[n], hdx[n], hv[n], ht[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(-1.0 + 2.2 * ((i * 37) % n) / n);
    hv[i] = T(1);
  }
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n), *v = to_device(hv, n);
  T *t = zeros_on_device<T>(n);
  grad<T><<<n / 64, 64>>>(x, dx, v, t);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(ht, t, n);
  for (int i = 0; i < n; ++i) {
    double h = 1e-7, xi = hx[i];
    double fd = (path(xi + h, i) - path(xi - h, i)) / (2 * h);
    // Skip points within h of a branch switch (no derivative there).
    if (std::fabs(path(xi + 1e-4, i) - path(xi - 1e-4, i) - 2e-4 * fd) >
        1e-5 * (1 + std::fabs(fd)))
      continue;
    check_close(name, i, hdx[i], fd, Tol<T>::fd * 10);
    check_close(name, 1000 + i, ht[i], hdx[i], Tol<T>::exact * 10);
  }
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_divergent");
}
