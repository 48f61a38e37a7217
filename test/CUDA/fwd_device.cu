// Forward mode in device code: every thread calls __ad_fwddiff on a
// __device__ function (four RK4 steps of a cubic ODE whose coefficient
// depends on the thread's index) and gets d(result)/d(x0); checked against
// central finite differences of the same function on the host, in double
// and float, and the per-thread results against a host run of the primal.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// What runs is the plugin's device output: in the NVPTX module, and in the
// module lowered for the host, the kernel holds the tangents (inlined into
// it, so that its pointers are global ones) and calls neither the entry
// point nor the primal.
// RUN: rm -rf %t.keep && %cuda_host_run --keep=%t.keep %s -O2 > /dev/null
// RUN: llvm-dis %t.keep/device.bc -o - | FileCheck %s --check-prefix=DEVICE
// RUN: llvm-dis %t.keep/device-host.bc -o - | FileCheck %s --check-prefix=HOST
// DEVICE: target triple = "nvptx64-nvidia-cuda"
// DEVICE-LABEL: define {{.*}} @_Z8tangentsPKdPdS1_Pfi(
// DEVICE-NOT: call {{.*}}@_Z5rk4
// DEVICE-NOT: __ad_fwddiff
// DEVICE: ret void
// HOST: target triple = "x86_64-pc-linux-gnu"
// HOST-LABEL: define internal void @_Z8tangentsPKdPdS1_Pfi(
// HOST-NOT: call {{.*}}@_Z5rk4
// HOST-NOT: __ad_fwddiff
// HOST: ret void
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: fwd_device: 0 failures

#include "Inputs/check.h"

extern "C" __device__ double __ad_fwddiff(void *, ...);
extern "C" __device__ float __ad_fwddiff_float(void *, ...);

template <typename T> __host__ __device__ T rhs(T y, T k) {
  return k * y - y * y * y / 3 + T(0.5);
}

template <typename T> __host__ __device__ T rk4(T y, T k) {
  const T h = T(0.1);
  for (int s = 0; s < 4; ++s) {
    T k1 = rhs(y, k), k2 = rhs(y + h / 2 * k1, k);
    T k3 = rhs(y + h / 2 * k2, k), k4 = rhs(y + h * k3, k);
    y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return y;
}

__device__ double rk4_d(double y, double k) { return rk4(y, k); }
__device__ float rk4_f(float y, float k) { return rk4(y, k); }

__global__ void tangents(const double *y0, double *value, double *dd,
                         float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double k = 1 + 0.01 * i;
  value[i] = rk4_d(y0[i], k);
  dd[i] = __ad_fwddiff((void *)rk4_d, y0[i], 1.0, k, 0.0);
  df[i] = __ad_fwddiff_float((void *)rk4_f, float(y0[i]), 1.0f, float(k),
                             0.0f);
}

int main() {
  const int n = 300;
  double hy[n], hv[n], hdd[n], *y0, *value, *dd;
  float hdf[n], *df;
  for (int i = 0; i < n; ++i)
    hy[i] = -2 + 4.0 * i / n;
  CUDA_OK(cudaMalloc(&y0, sizeof hy));
  CUDA_OK(cudaMalloc(&value, sizeof hv));
  CUDA_OK(cudaMalloc(&dd, sizeof hdd));
  CUDA_OK(cudaMalloc(&df, sizeof hdf));
  CUDA_OK(cudaMemcpy(y0, hy, sizeof hy, cudaMemcpyHostToDevice));
  tangents<<<(n + 127) / 128, 128>>>(y0, value, dd, df, n);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(hv, value, sizeof hv, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(hdd, dd, sizeof hdd, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(hdf, df, sizeof hdf, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double k = 1 + 0.01 * i, h = 1e-6;
    double fd = (rk4(hy[i] + h, k) - rk4(hy[i] - h, k)) / (2 * h);
    check_close("value", i, hv[i], rk4(hy[i], k), 1e-14);
    check_close("d/dy0 double", i, hdd[i], fd, 1e-7);
    check_close("d/dy0 float", i, hdf[i], fd, 1e-4);
  }
  return report("fwd_device");
}
