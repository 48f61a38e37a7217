// A 1-D three-point stencil with a nonlinear flux, one cell per thread,
// written to y: y_i = x_i + k (F(x_{i+1}) - 2 F(x_i) + F(x_{i-1})), F(u) =
// u^3/3 + sin(u), periodic. Every x_i is read by three threads, so its
// adjoint gathers three contributions (atomically). Reverse mode with the
// seed w on y, forward mode with tangent v on x, checked against the
// transpose computed on the host (<J v, w> = <v, J^T w> and J^T w entry by
// entry), in double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run %s -O1 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_90 -O3 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 -O0 -c %s -o %t.o
// CHECK: ad_stencil: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T> __host__ __device__ T flux(T u) {
  return u * u * u / T(3) + sin(u);
}

template <typename T> __device__ void step(const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int l = i == 0 ? n - 1 : i - 1, r = i == n - 1 ? 0 : i + 1;
  y[i] = x[i] + T(0.1) * (flux(x[r]) - T(2) * flux(x[i]) + flux(x[l]));
}

template <typename T>
__global__ void grad(const T *x, T *dx, T *y, T *dy, int n) {
  __ad_autodiff_void((void *)step<T>, __ad_dup, x, dx, __ad_dup, y, dy,
                     __ad_const, n);
}
template <typename T>
__global__ void tangent(const T *x, T *v, T *y, T *ty, int n) {
  __ad_fwddiff_void((void *)step<T>, __ad_dup, x, v, __ad_dup, y, ty,
                    __ad_const, n);
}

template <typename T> void run(const char *name) {
  const int n = 700;
  T hx[n], hw[n], hv[n], hdx[n], hty[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(std::sin(0.05 * i));
    hw[i] = T(std::cos(0.3 * i));
    hv[i] = T(0.5 + 0.001 * i);
  }
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n);
  T *y = zeros_on_device<T>(n), *dy = to_device(hw, n);
  grad<T><<<(n + 127) / 128, 128>>>(x, dx, y, dy, n);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  T *v = to_device(hv, n), *ty = zeros_on_device<T>(n);
  tangent<T><<<(n + 127) / 128, 128>>>(x, v, y, ty, n);
  LAUNCH_OK();
  to_host(hty, ty, n);
  // J^T w on the host: dF(u) = u^2 + cos(u).
  double jtw_dot_v = 0, w_dot_jv = 0;
  for (int i = 0; i < n; ++i) {
    int l = i == 0 ? n - 1 : i - 1, r = i == n - 1 ? 0 : i + 1;
    double xi = hx[i], df = xi * xi + std::cos(xi);
    double want = double(hw[i]) * (1 - 0.2 * df) +
                  0.1 * df * (double(hw[l]) + double(hw[r]));
    check_close(name, i, hdx[i], want, 10 * Tol<T>::exact);
    jtw_dot_v += double(hdx[i]) * double(hv[i]);
    w_dot_jv += double(hw[i]) * double(hty[i]);
  }
  check_close(name, -1, w_dot_jv, jtw_dot_v, 100 * Tol<T>::exact);
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_stencil");
}
