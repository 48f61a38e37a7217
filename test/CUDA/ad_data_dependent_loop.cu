// A per-thread loop whose trip count depends on the data (iterate
// s <- s - 0.1 * sin(s) * a_i until |s| < tol or 200 steps): the reverse
// sweep needs the values of every iteration, recorded on a tape in the
// device heap that grows without realloc. Checked against central finite
// differences (in x and in a) and forward mode against reverse, in double
// and float.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// With libdevice linked before the plugin runs, as in a GPU build:
// RUN: %cuda_host_run --libdevice %s -O2 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: ad_data_dependent_loop: 0 failures

#include "Inputs/check.h"
#include "Inputs/ad_common.h"

template <typename T> __host__ __device__ T iterate(T x, T a) {
  T s = x;
  for (int k = 0; k < 200; ++k) {
    s = s - T(0.1) * sin(s) * a + T(0.001) * s * s;
    if (fabs(s) < T(0.05))
      break;
  }
  return s * s + a * s;
}

// Two __ad_out scalars: their adjoints come back as a struct.
struct PairD { double dx, da; };
struct PairF { float dx, da; };
extern "C" __device__ PairD __ad_autodiff_pd(void *, ...);
extern "C" __device__ PairF __ad_autodiff_pf(void *, ...);

__device__ void both(double x, double a, double *dx, double *da, double *tx) {
  PairD r = __ad_autodiff_pd((void *)iterate<double>, __ad_out, x, __ad_out, a);
  *dx = r.dx, *da = r.da;
  *tx = __ad_fwddiff((void *)iterate<double>, x, 1.0, a, 0.0);
}
__device__ void both(float x, float a, float *dx, float *da, float *tx) {
  PairF r = __ad_autodiff_pf((void *)iterate<float>, __ad_out, x, __ad_out, a);
  *dx = r.dx, *da = r.da;
  *tx = __ad_fwddiff_float((void *)iterate<float>, x, 1.0f, a, 0.0f);
}

template <typename T>
__global__ void grad(const T *x, const T *a, T *dx, T *da, T *tx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    both(x[i], a[i], &dx[i], &da[i], &tx[i]);
}

template <typename T> void run(const char *name) {
  const int n = 300;
  T hx[n], ha[n], hdx[n], hda[n], htx[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = T(0.3 + 2.5 * i / n);
    ha[i] = T(0.5 + 0.01 * (i % 50));
  }
  T *x = to_device(hx, n), *a = to_device(ha, n);
  T *dx = zeros_on_device<T>(n), *da = zeros_on_device<T>(n);
  T *tx = zeros_on_device<T>(n);
  grad<T><<<(n + 63) / 64, 64>>>(x, a, dx, da, tx, n);
  LAUNCH_OK();
  to_host(hdx, dx, n);
  to_host(hda, da, n);
  to_host(htx, tx, n);
  for (int i = 0; i < n; ++i) {
    double h = 1e-6;
    double fx = (iterate<double>(double(hx[i]) + h, double(ha[i])) -
                 iterate<double>(double(hx[i]) - h, double(ha[i]))) / (2 * h);
    double fa = (iterate<double>(double(hx[i]), double(ha[i]) + h) -
                 iterate<double>(double(hx[i]), double(ha[i]) - h)) / (2 * h);
    check_close(name, i, hdx[i], fx, Tol<T>::fd * 10);
    check_close(name, 1000 + i, hda[i], fa, Tol<T>::fd * 10);
    check_close(name, 2000 + i, htx[i], hdx[i], Tol<T>::exact * 10);
  }
}

int main() {
  run<double>("double");
  run<float>("float");
  return report("ad_data_dependent_loop");
}
