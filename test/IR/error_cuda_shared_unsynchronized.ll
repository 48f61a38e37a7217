; A __shared__ array in a function that never synchronizes its block: no
; point is known where the block's threads could zero its shadow together,
; and a thread zeroing it alone could wipe adjoints another thread has
; already added. An error at the entry call, not a race.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s

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
  %w = load float, ptr %ps, align 4
  %p = fmul float %w, %v
  ret float %p
}

define void @k(ptr %x, ptr %dx) {
  %r = call float (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare float @__ad_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: error: {{.*}}'f' uses __shared__ memory but never synchronizes the block, so the block's threads cannot zero the shadow of that memory together before the derivative; hint: call __syncthreads() in it
