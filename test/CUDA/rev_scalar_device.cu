// Reverse mode in device code, where it works today: every thread calls
// __ad_autodiff on a straight-line __device__ function of two scalars (no
// tape to grow) and gets both partial derivatives in a struct; against the
// closed forms, in double and float. Not yet at -O0, nor with a loop: their
// tape grows with realloc, which device code lacks (ptxas and cuda-host-run
// both reject it; issue 14's device tape is to remove that), so this test
// runs at -O1 to -O3 until then.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O1 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: rev_scalar_device: 0 failures

#include "Inputs/check.h"

struct D2 {
  double dx, dy;
};
struct F2 {
  float dx, dy;
};
extern "C" __device__ D2 __ad_autodiff_d2(void *, ...);
extern "C" __device__ F2 __ad_autodiff_f2(void *, ...);

template <typename T> __host__ __device__ T f(T x, T y) {
  return x * x * y + y / (1 + x * x) - 3 * x;
}
__device__ double f_d(double x, double y) { return f(x, y); }
__device__ float f_f(float x, float y) { return f(x, y); }

__global__ void gradients(const double *x, const double *y, D2 *gd, F2 *gf,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  gd[i] = __ad_autodiff_d2((void *)f_d, x[i], y[i]);
  gf[i] = __ad_autodiff_f2((void *)f_f, float(x[i]), float(y[i]));
}

int main() {
  const int n = 200;
  double hx[n], hy[n], *x, *y;
  D2 hd[n], *gd;
  F2 hf[n], *gf;
  for (int i = 0; i < n; ++i) {
    hx[i] = -2 + 4.0 * i / n;
    hy[i] = 0.5 + 0.01 * i;
  }
  CUDA_OK(cudaMalloc(&x, sizeof hx));
  CUDA_OK(cudaMalloc(&y, sizeof hy));
  CUDA_OK(cudaMalloc(&gd, sizeof hd));
  CUDA_OK(cudaMalloc(&gf, sizeof hf));
  CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
  gradients<<<(n + 63) / 64, 64>>>(x, y, gd, gf, n);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(hd, gd, sizeof hd, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(hf, gf, sizeof hf, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double X = hx[i], Y = hy[i], q = 1 + X * X;
    double dx = 2 * X * Y - Y * 2 * X / (q * q) - 3, dy = X * X + 1 / q;
    check_close("d/dx double", i, hd[i].dx, dx, 1e-14);
    check_close("d/dy double", i, hd[i].dy, dy, 1e-14);
    check_close("d/dx float", i, hf[i].dx, dx, 1e-5);
    check_close("d/dy float", i, hf[i].dy, dy, 1e-5);
  }
  return report("rev_scalar_device");
}
