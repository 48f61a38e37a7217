; A barrier (__syncthreads) orders the threads' accesses to shared memory; the
; reverse sweep needs the mirrored order: every thread adds the adjoint of its
; read of s[31 - t] (after the barrier in the primal) before any thread takes
; the adjoint of its write of s[t] (before it). So the gradient calls the
; barrier twice, the second time between those two; the tangent calls it once,
; where the primal does. OpenMP's __kmpc_barrier has the same row; its
; reverse asks for the thread's id again (the reverse runs in another team).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s --check-prefix=OMP

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Thread t writes x[t] to shared s[t], waits, then squares its neighbour's
; s[31 - t] into x[t].
define void @f(ptr %x, ptr %s) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ti
  %v = load float, ptr %px, align 4
  %ps = getelementptr inbounds float, ptr %s, i64 %ti
  store float %v, ptr %ps, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %j = sub i64 31, %ti
  %pn = getelementptr inbounds float, ptr %s, i64 %j
  %w = load float, ptr %pn, align 4
  %w2 = fmul float %w, %w
  store float %w2, ptr %px, align 4
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %s, ptr %ds) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %s, ptr %ds)
  ret void
}

define void @tangent(ptr %x, ptr %dx, ptr %s, ptr %ds) {
  call void (ptr, ...) @__ad_fwddiff(ptr @f, ptr %x, ptr %dx, ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK: store float %v, ptr %ps
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: rev.entry:
; s[31 - t] is another thread's slot: its adjoint is added atomically.
; CHECK: atomicrmw fadd ptr %pn.shadow, float %w.d monotonic
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: load float, ptr %ps.shadow
; CHECK-NEXT: store float 0.000000e+00, ptr %ps.shadow
; CHECK-NOT: barrier
; CHECK: ret void

; CHECK-LABEL: define internal {{.*}} @f.ad.tangent(
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NOT: barrier
; CHECK: ret

; OpenMP's barrier, with a thread id the reverse sweep reads back.
define void @g(ptr %x, i32 %gtid) {
entry:
  %v = load float, ptr %x, align 4
  call void @__kmpc_barrier(ptr null, i32 %gtid)
  %v2 = fmul float %v, %v
  store float %v2, ptr %x, align 4
  ret void
}

define void @gradg(ptr %x, ptr %dx, i32 %gtid) {
  call void (ptr, ...) @__ad_autodiff(ptr @g, ptr %x, ptr %dx, i32 %gtid)
  ret void
}

; OMP-LABEL: define internal void @g.ad.gradient(
; OMP: call void @__kmpc_barrier(ptr null, i32 %1)
; OMP: rev.entry:
; OMP: %[[GTID:.*]] = call i32 @__kmpc_global_thread_num(ptr null)
; OMP: call void @__kmpc_barrier(ptr null, i32 %[[GTID]])
; OMP: ret void

declare void @__kmpc_barrier(ptr, i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @__ad_autodiff(ptr, ...)
declare void @__ad_fwddiff(ptr, ...)
