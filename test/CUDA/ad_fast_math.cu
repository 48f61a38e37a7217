// CUDA's fast intrinsics (__expf, __sinf, __cosf, __logf, __fdividef:
// PTX approximations, NVVM intrinsics), rsqrtf and a powf with a constant
// exponent (which the optimizer would specialize into a one-argument
// __nv_powf if the plugin did not keep libdevice functions whole until the
// derivative exists): reverse mode against central finite differences of
// the same expression on the host (exact functions: the approximations
// agree to ~1e-6), forward against reverse.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run --libdevice %s -O2 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_fast_math: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

__device__ float fast(const float *x) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  return __expf(0.5f * v) + __sinf(v) * __cosf(v) + __logf(2.f + v * v) +
         __fdividef(v, 3.f + v * v) + rsqrtf(1.f + v * v) +
         powf(1.5f + v * v, 2.5f);
}

double exact(double v) {
  return std::exp(0.5 * v) + std::sin(v) * std::cos(v) +
         std::log(2 + v * v) + v / (3 + v * v) + 1 / std::sqrt(1 + v * v) +
         std::pow(1.5 + v * v, 2.5);
}

__global__ void grad(const float *x, float *dx, float *v, float *t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __ad_autodiff_void((void *)fast, __ad_dup, x, dx);
  t[i] = __ad_fwddiff_float((void *)fast, __ad_dup, x, v);
}

int main() {
  const int n = 256;
  float hx[n], hdx[n], hv[n], ht[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = float(-1.2 + 2.4 * i / n);
    hv[i] = 1.0f;
  }
  float *x = to_device(hx, n), *dx = zeros_on_device<float>(n);
  float *v = to_device(hv, n), *t = zeros_on_device<float>(n);
  grad<<<n / 64, 64>>>(x, dx, v, t);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(ht, t, n);
  for (int i = 0; i < n; ++i) {
    double h = 1e-6, xi = hx[i];
    double fd = (exact(xi + h) - exact(xi - h)) / (2 * h);
    check_close("d/dx", i, hdx[i], fd, 1e-4);
    check_close("forward", i, ht[i], hdx[i], 1e-5);
  }
  return report("ad_fast_math");
}
