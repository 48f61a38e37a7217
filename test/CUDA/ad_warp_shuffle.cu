// Reverse and forward mode through warp shuffles: a warp sums x_i^2 with
// __shfl_down_sync, lane 0's total is broadcast with __shfl_sync, and each
// lane returns total * (x_i + its xor-1 neighbour's x + its up-2 neighbour's
// x). Reverse: the adjoints go back to the lanes they came from; forward:
// the tangents move with the values. Checked against finite differences of
// the sum of all threads' results (reverse: the gradient; forward: one
// direction), and forward against reverse (<J v, 1> = <v, J^T 1>), in
// double and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run %s -O3 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_90 -O3 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 -O0 -c %s -o %t.o
// CHECK: ad_warp_shuffle: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T> __device__ T warp_f(const T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = x[i] * x[i];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  T total = __shfl_sync(0xffffffffu, v, 0);
  T side = __shfl_xor_sync(0xffffffffu, x[i], 1) +
           __shfl_up_sync(0xffffffffu, x[i], 2);
  return total * (x[i] + side);
}

// The same on the host, lane by lane, for one warp of 32 values.
template <typename T> double warp_sum_host(const T *x) {
  double total = 0, out = 0;
  for (int l = 0; l < 32; ++l)
    total += double(x[l]) * double(x[l]);
  for (int l = 0; l < 32; ++l) {
    double up = l >= 2 ? double(x[l - 2]) : double(x[l]);
    out += total * (double(x[l]) + double(x[l ^ 1]) + up);
  }
  return out;
}

template <typename T> __global__ void grad(const T *x, T *dx) {
  __ad_autodiff_void((void *)warp_f<T>, __ad_dup, x, dx);
}
template <typename T> __global__ void tangent(const T *x, const T *v, T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T *vv = const_cast<T *>(v);
  if (sizeof(T) == 8)
    out[i] = __ad_fwddiff((void *)warp_f<T>, __ad_dup, x, vv);
  else
    out[i] = __ad_fwddiff_float((void *)warp_f<T>, __ad_dup, x, vv);
}

template <typename T> void run(const char *name) {
  const int warps = 4, n = 32 * warps;
  T hx[n], hdx[n], hv[n], ht[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(0.5 * std::cos(0.9 * i));
    hv[i] = T(std::sin(1.3 * i + 0.2));
  }
  T *x = to_device(hx, n), *dx = zeros_on_device<T>(n), *v = to_device(hv, n);
  T *t = zeros_on_device<T>(n);
  grad<T><<<2, 64>>>(x, dx);
  LAUNCH_OK();
  tangent<T><<<2, 64>>>(x, v, t);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(ht, t, n);
  double jv = 0, vjt = 0;
  for (int w = 0; w < warps; ++w) {
    double tw = 0;
    for (int l = 0; l < 32; ++l) {
      int i = 32 * w + l;
      T xp[32], xm[32];
      for (int k = 0; k < 32; ++k)
        xp[k] = xm[k] = hx[32 * w + k];
      double h = Tol<T>::h * (1 + std::fabs(double(hx[i])));
      xp[l] = T(double(hx[i]) + h);
      xm[l] = T(double(hx[i]) - h);
      double fd = (warp_sum_host(xp) - warp_sum_host(xm)) /
                  (double(xp[l]) - double(xm[l]));
      check_close(name, i, hdx[i], fd, Tol<T>::fd);
      vjt += double(hv[i]) * double(hdx[i]);
      tw += double(ht[i]);
    }
    jv += tw;
  }
  check_close(name, -1, jv, vjt, 100 * Tol<T>::exact);
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_warp_shuffle");
}
