// Each thread works in its own local array (a small per-thread buffer: a
// cumulative product with a data-dependent division), whose shadow is the
// thread's own: plain adds, no atomics. Reverse mode against central finite
// differences, forward against reverse; double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_local_array: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

const int M = 6;

template <typename T> __host__ __device__ T local_work(const T *x) {
  T buf[M];
  for (int k = 0; k < M; ++k)
    buf[k] = x[k] + T(0.1) * k;
  for (int k = 1; k < M; ++k)
    buf[k] = buf[k] * buf[k - 1] / (T(1) + buf[k - 1] * buf[k - 1]);
  T s = 0;
  for (int k = 0; k < M; ++k)
    s += buf[k] * (k + 1);
  return s;
}

template <typename T> __device__ T f(const T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  return local_work(x + M * i);
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
  const int threads = 96, n = threads * M;
  T hx[n], hdx[n], hv[n], ht[threads];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(0.2 + 0.9 * std::sin(0.13 * i));
    hv[i] = T(std::cos(0.4 * i));
  }
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n), *v = to_device(hv, n);
  T *t = zeros_on_device<T>(threads);
  grad<T><<<3, 32>>>(x, dx, v, t);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(ht, t, threads);
  for (int th = 0; th < threads; ++th) {
    double xs[M], dot = 0;
    for (int k = 0; k < M; ++k)
      xs[k] = hx[M * th + k];
    for (int k = 0; k < M; ++k) {
      double h = 1e-6, save = xs[k];
      xs[k] = save + h;
      double fp = local_work(xs);
      xs[k] = save - h;
      double fm = local_work(xs);
      xs[k] = save;
      check_close(name, M * th + k, hdx[M * th + k], (fp - fm) / (2 * h),
                  Tol<T>::fd * 10);
      dot += double(hdx[M * th + k]) * double(hv[M * th + k]);
    }
    check_close(name, 10000 + th, ht[th], dot, Tol<T>::exact * 100);
  }
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_local_array");
}
