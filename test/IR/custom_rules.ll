; Custom rules registered as ad.h's macros do it: forward mode calls the
; forward rule after the primal call with the argument's tangent; reverse
; mode keeps the primal call and calls the reverse rule in the reverse sweep
; with a zeroed slot for the adjoint; the inactive function gets nothing.
; The registration arrays are gone afterwards, and so are unused rules.
; RUN: %opt_ad -passes=ad -S %s | FileCheck %s

@__ad_rule_forward_0 = internal constant [2 x ptr] [ptr @g, ptr @g_fwd]
@__ad_rule_reverse_1 = internal constant [2 x ptr] [ptr @g, ptr @g_rev]
@__ad_rule_inactive_2 = internal constant [1 x ptr] [ptr @logv]
@__ad_rule_forward_3 = internal constant [2 x ptr] [ptr @unused, ptr @unused_fwd]
@llvm.compiler.used = appending global [4 x ptr] [ptr @__ad_rule_forward_0, ptr @__ad_rule_reverse_1, ptr @__ad_rule_inactive_2, ptr @__ad_rule_forward_3], section "llvm.metadata"

declare double @g(double, i32)
declare double @g_fwd(double, i32, double)
declare void @g_rev(double, i32, double, ptr)
declare void @logv(double)
declare double @unused(double)
define internal double @unused_fwd(double %x, double %dx) {
  ret double %dx
}

define double @f(double %x) {
  %y = call double @g(double %x, i32 3)
  call void @logv(double %y)
  %z = fmul double %y, %x
  ret double %z
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

define double @rev(double %x) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %r
}

define double @fwd(double %x) {
  %r = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK-NOT: __ad_rule_
; CHECK-NOT: llvm.compiler.used
; CHECK-NOT: @unused_fwd

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK:       %[[SLOT:.*]] = alloca double
; CHECK:       %y = call double @g(double %0, i32 3)
; CHECK-NEXT:  call void @logv(double %y)
; CHECK:       %y.d = load double, ptr %y.adj
; CHECK:       store double 0.000000e+00, ptr %[[SLOT]]
; CHECK-NEXT:  call void @g_rev(double %0, i32 3, double %y.d, ptr %[[SLOT]])
; CHECK-NEXT:  %[[D:.*]] = load double, ptr %[[SLOT]]
; CHECK-NEXT:  %[[OLD:.*]] = load double, ptr %x.adj
; CHECK-NEXT:  fadd reassoc double %[[OLD]], %[[D]]

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK:       %y = call double @g(double %0, i32 3)
; CHECK-NEXT:  %y.d = call double @g_fwd(double %0, i32 3, double %1)
; CHECK-NEXT:  call void @logv(double %y)
