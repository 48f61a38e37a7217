; __syncthreads_count (and _and, _or) is a barrier that also reduces a
; predicate: like __syncthreads, the reverse sweep calls it again at the
; mirrored place, between the adjoint of the read of another thread's slot
; after it and the adjoint of the write before it.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define float @f(ptr %x, ptr %s) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ti
  %v = load float, ptr %px, align 4
  %ps = getelementptr inbounds float, ptr %s, i64 %ti
  store float %v, ptr %ps, align 4
  %n = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 true)
  %j = sub i64 31, %ti
  %pn = getelementptr inbounds float, ptr %s, i64 %j
  %w = load float, ptr %pn, align 4
  %w2 = fmul float %w, %w
  ret float %w2
}

define void @grad(ptr %x, ptr %dx, ptr %s, ptr %ds) {
  %r = call float (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %s, ptr %ds)
  ret void
}

declare float @__ad_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK: call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 true)
; CHECK: rev.entry:
; CHECK: atomicrmw fadd ptr %pn.shadow
; CHECK-NEXT: call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 true)
; CHECK-NEXT: load float, ptr %ps.shadow
