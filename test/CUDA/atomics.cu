// atomicAdd in the primal: every thread of the grid adds into one float and
// one double (the pattern of a scalar every thread's adjoint reaches), a
// histogram of ints, and atomicMax / atomicCAS; against host sums. Values
// are multiples of 1/8 below 2^10 so that float sums are exact in any order.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: atomics: 0 failures

#include "Inputs/check.h"

const int N = 3000, Bins = 10;

__global__ void accumulate(const float *x, float *fsum, double *dsum,
                           int *hist, int *max, int *first, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(fsum, x[i]);
  atomicAdd(dsum, double(x[i]) * 3);
  atomicAdd(&hist[i % Bins], 1);
  atomicMax(max, (i * 7919) % 10007);
  // The first thread to arrive claims the slot; -1 means free.
  atomicCAS(first, -1, i);
}

int main() {
  float hx[N];
  double want_f = 0;
  int want_max = 0;
  for (int i = 0; i < N; ++i) {
    hx[i] = float(i % 64) / 8;
    want_f += hx[i];
    want_max = (i * 7919) % 10007 > want_max ? (i * 7919) % 10007 : want_max;
  }
  float *x, *fsum, hf;
  double *dsum, hd;
  int *hist, *max, *first, hh[Bins], hm, hfirst = -1;
  CUDA_OK(cudaMalloc(&x, sizeof hx));
  CUDA_OK(cudaMalloc(&fsum, sizeof hf));
  CUDA_OK(cudaMalloc(&dsum, sizeof hd));
  CUDA_OK(cudaMalloc(&hist, sizeof hh));
  CUDA_OK(cudaMalloc(&max, sizeof hm));
  CUDA_OK(cudaMalloc(&first, sizeof hfirst));
  CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(fsum, 0, sizeof hf));
  CUDA_OK(cudaMemset(dsum, 0, sizeof hd));
  CUDA_OK(cudaMemset(hist, 0, sizeof hh));
  CUDA_OK(cudaMemset(max, 0, sizeof hm));
  CUDA_OK(cudaMemcpy(first, &hfirst, sizeof hfirst, cudaMemcpyHostToDevice));
  accumulate<<<(N + 255) / 256, 256>>>(x, fsum, dsum, hist, max, first, N);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(&hf, fsum, sizeof hf, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&hd, dsum, sizeof hd, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&hm, max, sizeof hm, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&hfirst, first, sizeof hfirst, cudaMemcpyDeviceToHost));
  check_close("float sum", 0, hf, want_f, 0);
  check_close("double sum", 0, hd, 3 * want_f, 0);
  for (int b = 0; b < Bins; ++b)
    check_equal("histogram", b, hh[b], N / Bins);
  check_equal("max", 0, hm, want_max);
  if (hfirst < 0 || hfirst >= N)
    check_equal("cas winner in range", 0, hfirst, 0);
  return report("atomics");
}
