; CUDA's atomicAdd on a double is an atomicrmw fadd. Reverse mode: the added
; value's adjoint is the location's (read with an atomic load, as other
; threads may be adding theirs), which stays; where the old value is used,
; its adjoint is added back to the location's atomically. Forward mode: the
; tangent is added to the shadow by the same atomic update, whose result is
; the old value's tangent. An atomic max of differentiated data and a
; compare-and-swap on it are errors at their line.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define double @f(ptr %x, ptr %y) {
entry:
  %v = load double, ptr %x, align 8
  %sq = fmul double %v, %v
  %old = atomicrmw fadd ptr %y, double %sq seq_cst, align 8
  %prod = fmul double %old, %v
  ret double %prod
}

define double @grad(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret double %r
}

define double @tangent(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %r = call double (ptr, ...) @__ad_fwddiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret double %r
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK: %old = atomicrmw fadd ptr %1, double %sq seq_cst
; The old value's adjoint (from old * v) is taken before the location's is
; read for sq, and added back to it atomically after.
; CHECK: %old.d = load double, ptr %old.adj
; CHECK: %[[D:.*]] = load atomic double, ptr %3 monotonic
; CHECK: fadd reassoc double %{{.*}}, %[[D]]
; CHECK: atomicrmw fadd ptr %3, double %old.d monotonic
; CHECK: ret void

; CHECK-LABEL: define internal {{.*}} @f.ad.tangent(
; CHECK: %old = atomicrmw fadd ptr %1, double %sq seq_cst
; CHECK: %[[T:.*]] = atomicrmw fadd ptr %3, double %{{.*}} seq_cst
; CHECK: fmul double %v, %[[T]]
