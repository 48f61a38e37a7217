// What the plugin leaves in the device module of a real GPU build (libdevice
// linked, as clang links it): sin's rule is applied to the call of
// __nv_sin (kept from inlining until the derivative exists), its partial
// calls __nv_cos, which the program never called and the plugin links from
// the CUDA installation's libdevice; a double __shfl_down_sync is CUDA's
// header function, whose adjoint is two indexed 32-bit shuffles of the
// halves; adjoints of x (read by every thread) are added atomically.
// REQUIRES: cuda
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 -O2 --cuda-device-only -emit-llvm -S %s -o - | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_90 -O0 --cuda-device-only -emit-llvm -S %s -o - | FileCheck %s --check-prefix=O0

#include "Inputs/ad_common.h"

__device__ double f(const double *x) {
  double v = sin(x[threadIdx.x]) * x[0];
  return __shfl_down_sync(0xffffffffu, v, 1);
}

__global__ void k(const double *x, double *dx) {
  __ad_autodiff_void((void *)f, __ad_dup, x, dx);
}

// From -O1 the gradient is inlined into the kernel (where the backend
// finds its pointers to be global ones).
// CHECK-LABEL: define {{.*}}void @_Z1kPKdPd(
// CHECK-NOT: call {{.*}}@__nv_sin
// CHECK: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
// CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1,
// CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1,
// CHECK: atomicrmw fadd ptr
// CHECK: ret void
// The partial cos(x), linked from libdevice and inlined: no call remains.
// CHECK-NOT: declare {{.*}}@__nv_cos
// CHECK-NOT: declare {{.*}}@__nv_sin

// At -O0 nothing is inlined: the gradient calls libdevice's functions.
// O0-LABEL: define internal void @_Z1fPKd.ad.gradient(
// O0: call {{.*}}double @__nv_sin(
// O0: call {{.*}}double @__nv_cos(
// O0: define internal {{.*}}double @__nv_cos(
