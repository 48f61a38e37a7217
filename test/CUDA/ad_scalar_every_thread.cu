// Reverse mode where every thread reads the same scalar (w[0]) and its own
// x[i]: each thread's adjoint of w reaches dw (atomic adds in the
// derivative; a plain load-add-store would lose most of them, the failure
// EnzymeAD/Enzyme#2199 reports). dw = sum_i sin(x_i) exp(x_i w), dx_i =
// (cos(x_i) + w sin(x_i)) exp(x_i w) w... checked against the closed form
// and central finite differences, in double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_scalar_every_thread: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T>
__host__ __device__ T term(const T *x, const T *w, int i) {
  return sin(x[i]) * exp(x[i] * w[0]);
}

template <typename T> __device__ T f(const T *x, const T *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  return term(x, w, i);
}

// dx and dw are __restrict__: x[i]'s adjoint, at the thread's own index,
// is a plain add (test/IR/cuda_thread_owned.ll), w[0]'s stays atomic.
template <typename T>
__global__ void grad(const T *x, T *__restrict__ dx, const T *w,
                     T *__restrict__ dw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __ad_autodiff_void((void *)f<T>, __ad_dup, x, dx, __ad_dup, w, dw);
}

template <typename T> void run(const char *name) {
  const int n = 1000;
  T hx[n], hdx[n], w = T(0.3), hdw;
  for (int i = 0; i < n; ++i)
    hx[i] = T(-1.5 + 3.0 * i / n);
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n);
  T *dw_ = zeros_on_device<T>(1), *w_ = to_device(&w, 1);
  grad<T><<<(n + 255) / 256, 256>>>(x, dx, w_, dw_, n);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(&hdw, dw_, 1);
  double want_dw = 0;
  for (int i = 0; i < n; ++i) {
    double xi = hx[i], e = std::exp(xi * double(w));
    want_dw += std::sin(xi) * e * xi;
    check_close(name, i, hdx[i],
                (std::cos(xi) + double(w) * std::sin(xi)) * e, 10 * Tol<T>::exact);
  }
  check_close(name, -1, hdw, want_dw, 100 * Tol<T>::exact);
  // Central finite differences of the sum over threads, in w.
  double h = Tol<T>::h, sp = 0, sm = 0;
  T wp = T(double(w) + h), wm = T(double(w) - h);
  for (int i = 0; i < n; ++i) {
    sp += double(term(hx, &wp, i));
    sm += double(term(hx, &wm, i));
  }
  check_close(name, -2, hdw, (sp - sm) / (double(wp) - double(wm)),
              Tol<T>::fd * 10);
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_scalar_every_thread");
}
