; An NVVM intrinsic the lowering has no host meaning for, inline PTX, and a
; call of a device function the host does not provide are errors that name
; them (a kernel never runs with one silently dropped).
; RUN: split-file %s %t
; RUN: not %opt_cudahost -passes=cuda-host-device %t/intrinsic.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTRINSIC
; RUN: not %opt_cudahost -passes=cuda-host-device %t/asm.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=ASM
; RUN: not %opt_cudahost -passes=cuda-host-device %t/external.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXTERNAL
; RUN: not %opt_cudahost -passes=cuda-host-device %t/host.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
; INTRINSIC: cuda-host-run: 'llvm.nvvm.match.any.sync.i32' (in 'kernel') has no host equivalent in cuda-host-run
; ASM: cuda-host-run: inline PTX 'mov.u32 $0, %smid;' in 'kernel' has no host equivalent
; EXTERNAL: cuda-host-run: device code calls 'cudaDeviceSynchronize', which cuda-host-run does not provide on the host
; HOST: cuda-host-run: '{{.*}}host.ll' is not an NVPTX device module

;--- intrinsic.ll
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @kernel(i32 %v) {
  %m = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %v)
  ret void
}
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)

;--- asm.ll
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @kernel() {
  %s = call i32 asm "mov.u32 $0, %smid;", "=r"()
  ret void
}

;--- external.ll
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @kernel() {
  %e = call i32 @cudaDeviceSynchronize()
  ret void
}
declare i32 @cudaDeviceSynchronize()

;--- host.ll
target triple = "x86_64-pc-linux-gnu"
define void @f() {
  ret void
}
