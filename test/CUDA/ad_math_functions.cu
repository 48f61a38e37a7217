// CUDA's math functions in device derivatives (libdevice's __nv_* on a GPU,
// the C library's on the host runner): sin, cos, exp, log, pow, tanh, sqrt,
// erf, atan2, hypot-free fabs and fmin/fmax, in double and float, each
// thread one point. Reverse mode (d/dx, d/dy as __ad_out) against central
// finite differences and forward mode.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// With libdevice linked before the plugin runs, as in a GPU build:
// RUN: %cuda_host_run --libdevice %s -O2 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 -O1 -c %s -o %t.o
// CHECK: ad_math_functions: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T> __host__ __device__ T g(T x, T y) {
  T a = sin(x) * cos(y) + exp(T(0.3) * x) * log(T(2) + y * y);
  T b = pow(T(1.5) + x * x, y) + tanh(x - y) + sqrt(T(1) + x * x * y * y);
  T c = erf(T(0.5) * x) + atan2(y, T(2) + x) + fabs(x - T(0.2)) * fmin(x, y) +
        fmax(x * y, T(0.1));
  return a + b * T(0.5) + c;
}

struct PairD { double dx, dy; };
struct PairF { float dx, dy; };
extern "C" __device__ PairD __ad_autodiff_pd(void *, ...);
extern "C" __device__ PairF __ad_autodiff_pf(void *, ...);

__device__ void both(double x, double y, double *d) {
  PairD r = __ad_autodiff_pd((void *)g<double>, x, y);
  d[0] = r.dx, d[1] = r.dy;
  d[2] = __ad_fwddiff((void *)g<double>, x, 1.0, y, 0.0);
}
__device__ void both(float x, float y, float *d) {
  PairF r = __ad_autodiff_pf((void *)g<float>, x, y);
  d[0] = r.dx, d[1] = r.dy;
  d[2] = __ad_fwddiff_float((void *)g<float>, x, 1.0f, y, 0.0f);
}

template <typename T>
__global__ void grads(const T *x, const T *y, T *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    both(x[i], y[i], &d[3 * i]);
}

template <typename T> void run(const char *name) {
  const int n = 256;
  T hx[n], hy[n], hd[3 * n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(-1.2 + 2.5 * i / n);
    hy[i] = T(0.4 + std::sin(0.7 * i));
  }
  T *x = to_device(hx, n), *y = to_device(hy, n), *d = zeros_on_device<T>(3 * n);
  grads<T><<<(n + 63) / 64, 64>>>(x, y, d, n);
  LAUNCH_OK();
  to_host(hd, d, 3 * n);
  for (int i = 0; i < n; ++i) {
    double xi = hx[i], yi = hy[i], h = 1e-6;
    // Points where fabs, fmin or fmax switch have no derivative.
    if (std::fabs(xi - 0.2) < 1e-3 || std::fabs(xi - yi) < 1e-3 ||
        std::fabs(xi * yi - 0.1) < 1e-3)
      continue;
    double fx = (g(xi + h, yi) - g(xi - h, yi)) / (2 * h);
    double fy = (g(xi, yi + h) - g(xi, yi - h)) / (2 * h);
    check_close(name, i, hd[3 * i], fx, Tol<T>::fd * 10);
    check_close(name, 1000 + i, hd[3 * i + 1], fy, Tol<T>::fd * 10);
    check_close(name, 2000 + i, hd[3 * i + 2], hd[3 * i], Tol<T>::exact * 10);
  }
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_math_functions");
}
