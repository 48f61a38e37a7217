; A __shared__ array (address space 3) gets a __shared__ shadow. Shared
; memory holds garbage when a block starts and every thread of the block
; sees the same shadow: where f synchronizes the block (so CUDA's rule has
; every thread call it), the block zeroes the shadow together, each thread
; every blockDim-th word, and waits at a barrier before the gradient runs.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x float] undef, align 4

define float @f(ptr %x) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ti
  %v = load float, ptr %px, align 4
  %ps = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 %ti
  store float %v, ptr %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %w = load float, ptr addrspacecast (ptr addrspace(3) @s to ptr), align 4
  %p = fmul float %w, %v
  ret float %p
}

define void @k(ptr %x, ptr %dx) {
  %r = call float (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare float @__ad_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; CHECK: @s.ad.shadow = internal addrspace(3) global [64 x float]
; CHECK-LABEL: define void @k(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: shared.zero:
; CHECK: getelementptr i32, ptr addrspace(3) @s.ad.shadow
; CHECK: store i32 0
; CHECK: shared.zeroed:
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: call {{.*}} @f.ad.gradient(
