// CUDA's math functions in device code, in float and double (sinf, expf,
// sqrtf, powf, ... and sin, exp, sqrt, pow, ...), against the host's libm
// on the same inputs, and sin/cos of large arguments (libdevice's argument
// reduction, multi-word integer arithmetic in inline PTX). By default
// cuda-host-run maps libdevice's __nv_* functions to libm; with --libdevice
// it runs libdevice's own code, as a GPU does, which CUDA documents within a
// few ulps, hence the tolerances.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %cuda_host_run --libdevice %s -O2 | FileCheck %s
// RUN: %cuda_host_run --libdevice %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: math: 0 failures

#include "Inputs/check.h"

const int N = 200, FloatFns = 12, DoubleFns = 12;

__global__ void float_fns(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], *o = out + i * FloatFns;
  o[0] = sinf(v);
  o[1] = cosf(v);
  o[2] = expf(v);
  o[3] = logf(v);
  o[4] = sqrtf(v);
  o[5] = powf(v, 1.5f);
  o[6] = tanhf(v);
  o[7] = erff(v);
  o[8] = fabsf(v - 2);
  o[9] = fminf(v, 1.0f);
  o[10] = atan2f(v, 2.0f);
  o[11] = rsqrtf(v);
}

__global__ void double_fns(const double *x, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i], *o = out + i * DoubleFns;
  o[0] = sin(v);
  o[1] = cos(v);
  o[2] = exp(v);
  o[3] = log(v);
  o[4] = sqrt(v);
  o[5] = pow(v, 2.5);
  o[6] = tanh(v);
  o[7] = log1p(v);
  o[8] = cbrt(v);
  o[9] = fmax(v, 1.0);
  o[10] = atan(v);
  o[11] = hypot(v, 3.0);
}

const int Large = 6;

__global__ void large_args(const double *x, float *of, double *od) {
  int i = threadIdx.x;
  if (i >= Large)
    return;
  of[2 * i] = sinf(float(x[i]));
  of[2 * i + 1] = cosf(float(x[i]));
  od[2 * i] = sin(x[i]);
  od[2 * i + 1] = cos(x[i]);
}

void test_large_args() {
  double hx[Large] = {1e5, -3.5e6, 1.2345e9, 7e15, 1e22, -2.5e30}, *x, *od,
         rd[2 * Large];
  float *of, rf[2 * Large];
  CUDA_OK(cudaMalloc(&x, sizeof hx));
  CUDA_OK(cudaMalloc(&of, sizeof rf));
  CUDA_OK(cudaMalloc(&od, sizeof rd));
  CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  large_args<<<1, 32>>>(x, of, od);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(rd, od, sizeof rd, cudaMemcpyDeviceToHost));
  for (int i = 0; i < Large; ++i) {
    float f = float(hx[i]);
    check_close("sinf large", i, rf[2 * i], sinf(f), 1e-6);
    check_close("cosf large", i, rf[2 * i + 1], cosf(f), 1e-6);
    check_close("sin large", i, rd[2 * i], sin(hx[i]), 1e-15);
    check_close("cos large", i, rd[2 * i + 1], cos(hx[i]), 1e-15);
  }
}

int main() {
  test_large_args();
  float hf[N], rf[N * FloatFns], *xf, *of;
  double hd[N], rd[N * DoubleFns], *xd, *od;
  for (int i = 0; i < N; ++i) {
    hd[i] = 0.05 + 4.0 * i / N;
    hf[i] = float(hd[i]);
  }
  CUDA_OK(cudaMalloc(&xf, sizeof hf));
  CUDA_OK(cudaMalloc(&of, sizeof rf));
  CUDA_OK(cudaMalloc(&xd, sizeof hd));
  CUDA_OK(cudaMalloc(&od, sizeof rd));
  CUDA_OK(cudaMemcpy(xf, hf, sizeof hf, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(xd, hd, sizeof hd, cudaMemcpyHostToDevice));
  float_fns<<<(N + 63) / 64, 64>>>(xf, of, N);
  LAUNCH_OK();
  double_fns<<<(N + 63) / 64, 64>>>(xd, od, N);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(rd, od, sizeof rd, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) {
    float v = hf[i];
    float wf[FloatFns] = {sinf(v),  cosf(v),          expf(v),
                          logf(v),  sqrtf(v),         powf(v, 1.5f),
                          tanhf(v), erff(v),          fabsf(v - 2),
                          fminf(v, 1.0f), atan2f(v, 2.0f), 1 / sqrtf(v)};
    for (int k = 0; k < FloatFns; ++k)
      check_close("float fn", i * FloatFns + k, rf[i * FloatFns + k], wf[k],
                  1e-6);
    double d = hd[i];
    double wd[DoubleFns] = {sin(d),  cos(d),   exp(d),       log(d),
                            sqrt(d), pow(d, 2.5), tanh(d),   log1p(d),
                            cbrt(d), fmax(d, 1.0), atan(d),  hypot(d, 3.0)};
    for (int k = 0; k < DoubleFns; ++k)
      check_close("double fn", i * DoubleFns + k, rd[i * DoubleFns + k],
                  wd[k], 1e-15);
  }
  return report("math");
}
