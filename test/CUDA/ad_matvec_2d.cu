// A 2-D grid of 2-D blocks: thread (r, c) computes one product
// tanh(W[r][c] x[c]) into y[r] with atomicAdd, so x[c] is read by every row
// and y[r] updated by every column. Reverse mode seeded with w on y: dW and
// dx against the closed form; forward mode in x against <J v, w> =
// <v, J^T w>. Double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_matvec_2d: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

const int R = 40, C = 24;

template <typename T> __device__ void layer(const T *W, const T *x, T *y) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < R && c < C)
    atomicAdd(&y[r], tanh(W[r * C + c] * x[c]));
}

template <typename T>
__global__ void grad(const T *W, T *dW, const T *x, T *dx, T *y, T *dy) {
  __ad_autodiff_void((void *)layer<T>, __ad_dup, W, dW, __ad_dup, x, dx,
                     __ad_dup, y, dy);
}
template <typename T>
__global__ void tangent(const T *W, T *tW, const T *x, T *v, T *y, T *ty) {
  __ad_fwddiff_void((void *)layer<T>, __ad_dup, W, tW, __ad_dup, x, v,
                    __ad_dup, y, ty);
}

template <typename T> void run(const char *name) {
  T hW[R * C], hx[C], hw[R], hv[C], hdW[R * C], hdx[C], hty[R];
  for (int i = 0; i < R * C; ++i)
    hW[i] = T(0.3 * std::sin(0.21 * i));
  for (int c = 0; c < C; ++c) {
    hx[c] = T(0.5 + 0.1 * c);
    hv[c] = T(std::cos(c));
  }
  for (int r = 0; r < R; ++r)
    hw[r] = T(1 + 0.05 * r);
  T *W = to_device(hW, R * C), *dW = zeros_on_device<T>(R * C);
  T *x = to_device(hx, C), *dx = zeros_on_device<T>(C);
  T *y = zeros_on_device<T>(R), *dy = to_device(hw, R);
  dim3 block(8, 8), grid((C + 7) / 8, (R + 7) / 8);
  grad<T><<<grid, block>>>(W, dW, x, dx, y, dy);
  LAUNCH_OK();
  to_host(hdW, dW, R * C);
  to_host(hdx, dx, C);
  T *tW = zeros_on_device<T>(R * C), *v = to_device(hv, C);
  T *ty = zeros_on_device<T>(R);
  CUDA_OK(cudaMemset(y, 0, sizeof(T) * R));
  tangent<T><<<grid, block>>>(W, tW, x, v, y, ty);
  LAUNCH_OK();
  to_host(hty, ty, R);
  double want_dx[C] = {0};
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      double a = double(hW[r * C + c]) * double(hx[c]);
      double s = 1 - std::tanh(a) * std::tanh(a);
      check_close(name, r * C + c, hdW[r * C + c], double(hw[r]) * s * double(hx[c]),
                  10 * Tol<T>::exact);
      want_dx[c] += double(hw[r]) * s * double(hW[r * C + c]);
    }
  double vjtw = 0, wjv = 0;
  for (int c = 0; c < C; ++c) {
    check_close(name, 10000 + c, hdx[c], want_dx[c], 100 * Tol<T>::exact);
    vjtw += double(hv[c]) * double(hdx[c]);
  }
  for (int r = 0; r < R; ++r)
    wjv += double(hw[r]) * double(hty[r]);
  check_close(name, -1, wjv, vjtw, 100 * Tol<T>::exact);
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_matvec_2d");
}
