; An adjoint needs no atomic add where the location belongs to one thread:
; x[i] at the global thread index i = blockIdx.x * blockDim.x + threadIdx.x,
; every access of x is at i, and the kernel passes a shadow that every
; thread receives alike from a __restrict__ parameter (no other pointer of
; the kernel reaches it). w[0], read by every thread, still gets atomic
; adds; without __restrict__ on dx (the GRAD2 kernel), or where f reads
; another index of x (the ALSO prefix), so does x's.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
; RUN: sed -e 's/^  ;EXTRA$/  %o = load double, ptr %x, align 8/' %s | %opt_ad -passes=ad -S | FileCheck %s --check-prefix=ALSO

target triple = "nvptx64-nvidia-cuda"

define double @f(ptr %x, ptr %w) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bn = mul i32 %b, %n
  %g = add i32 %bn, %t
  %gi = sext i32 %g to i64
  %px = getelementptr inbounds double, ptr %x, i64 %gi
  %v = load double, ptr %px, align 8
  ;EXTRA
  %w0 = load double, ptr %w, align 8
  %p = fmul double %v, %w0
  ret double %p
}

define ptx_kernel void @grad(ptr %x, ptr noalias %dx, ptr %w, ptr noalias %dw) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %w, ptr %dw)
  ret void
}

define ptx_kernel void @grad2(ptr %x, ptr %dx, ptr %w, ptr noalias %dw) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %w, ptr %dw)
  ret void
}

declare double @__ad_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Two derivatives: with x's shadow owned (grad), and without (grad2).
; CHECK-LABEL: define ptx_kernel void @grad(
; CHECK: call void @f.ad.gradient(
; CHECK-LABEL: define ptx_kernel void @grad2(
; CHECK: call void @f.ad.gradient2(
; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-DAG: atomicrmw fadd ptr %3, double %w0.d monotonic
; CHECK-DAG: load double, ptr %px.shadow
; CHECK-DAG: store double %{{.*}}, ptr %px.shadow
; CHECK-NOT: atomicrmw fadd ptr %px.shadow
; CHECK: ret void
; CHECK-LABEL: define internal void @f.ad.gradient2(
; CHECK-DAG: atomicrmw fadd ptr %3, double %w0.d monotonic
; CHECK-DAG: atomicrmw fadd ptr %px.shadow, double %v.d monotonic
; CHECK: ret void

; ALSO-LABEL: define internal void @f.ad.gradient(
; ALSO: atomicrmw fadd ptr %px.shadow
