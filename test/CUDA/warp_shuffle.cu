// Warp shuffles and votes: a warp-shuffle sum (__shfl_down_sync, float),
// a butterfly sum (__shfl_xor_sync, double: two 32-bit shuffles), an
// inclusive scan (__shfl_up_sync, int, in segments of 16 lanes), a
// broadcast (__shfl_sync) and __ballot_sync / __any_sync / __all_sync;
// every lane's result against a host computation. The block is not a
// multiple of 32 threads long, so its last warp is partial.
// runner_faults.cu runs this program with shuffles turned off.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: warp_shuffle: 0 failures

#include "Inputs/check.h"

const int Threads = 96, Blocks = 2, N = Threads * Blocks;

struct Out {
  float down_sum;  // lane 0: the warp's sum
  double xor_sum;  // every lane: the warp's sum
  int scan;        // inclusive prefix sum within 16-lane segments
  int broadcast;   // lane 5's value, in every lane
  unsigned ballot; // lanes whose value is odd
  int any, all;
};

__global__ void warp_ops(const float *x, const double *y, const int *v,
                         Out *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = x[i];
  for (int o = 16; o > 0; o >>= 1)
    f += __shfl_down_sync(0xffffffff, f, o);
  double d = y[i];
  for (int o = 1; o < 32; o <<= 1)
    d += __shfl_xor_sync(0xffffffff, d, o);
  int s = v[i];
  for (int o = 1; o < 16; o <<= 1) {
    int t = __shfl_up_sync(0xffffffff, s, o, 16);
    if (threadIdx.x % 16 >= o)
      s += t;
  }
  out[i].down_sum = f;
  out[i].xor_sum = d;
  out[i].scan = s;
  out[i].broadcast = __shfl_sync(0xffffffff, v[i], 5);
  out[i].ballot = __ballot_sync(0xffffffff, v[i] & 1);
  out[i].any = __any_sync(0xffffffff, v[i] > 40);
  out[i].all = __all_sync(0xffffffff, v[i] >= 0);
}

int main() {
  float hx[N];
  double hy[N];
  int hv[N];
  for (int i = 0; i < N; ++i) {
    hx[i] = 0.5f + i % 7;
    hy[i] = 1.0 / (i + 1);
    hv[i] = (i * 37) % 41;
  }
  float *x;
  double *y;
  int *v;
  Out *out, host[N];
  CUDA_OK(cudaMalloc(&x, sizeof hx));
  CUDA_OK(cudaMalloc(&y, sizeof hy));
  CUDA_OK(cudaMalloc(&v, sizeof hv));
  CUDA_OK(cudaMalloc(&out, sizeof host));
  CUDA_OK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(v, hv, sizeof hv, cudaMemcpyHostToDevice));
  warp_ops<<<Blocks, Threads>>>(x, y, v, out);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  for (int w = 0; w < N / 32; ++w) {
    int base = w * 32;
    double fsum = 0, dsum = 0;
    unsigned ballot = 0;
    int any = 0;
    for (int l = 0; l < 32; ++l) {
      fsum += hx[base + l];
      dsum += hy[base + l];
      ballot |= unsigned(hv[base + l] & 1) << l;
      any |= hv[base + l] > 40;
    }
    check_close("down_sum", base, host[base].down_sum, fsum, 1e-6);
    for (int l = 0; l < 32; ++l) {
      int i = base + l, scan = 0;
      for (int k = l / 16 * 16; k <= l; ++k)
        scan += hv[base + k];
      check_close("xor_sum", i, host[i].xor_sum, dsum, 1e-14);
      check_equal("scan", i, host[i].scan, scan);
      check_equal("broadcast", i, host[i].broadcast, hv[base + 5]);
      check_equal("ballot", i, host[i].ballot, ballot);
      check_equal("any", i, host[i].any, any);
      check_equal("all", i, host[i].all, 1);
    }
  }
  return report("warp_shuffle");
}
