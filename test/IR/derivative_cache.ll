; Derivatives are cached by signature: two entry-point calls with the same
; activities (all __ad_out) share one gradient, even with different argument
; values; a call with another activity (y __ad_const) gets a second gradient
; with one adjoint; forward mode gets a tangent. Three functions in all.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_const = external global i32

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x, double %y) {
entry:
  %g1 = call { double, double } (ptr, ...) @__ad_autodiff_2(ptr @f, double %x, double %y)
  %g2 = call { double, double } (ptr, ...) @__ad_autodiff_2(ptr @f, double %y, double %x)
  %d1 = extractvalue { double, double } %g1, 0
  %d2 = extractvalue { double, double } %g2, 1
  %k = load i32, ptr @__ad_const
  %d3 = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %k, double %y)
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double 1.0, double %y, double 0.0)
  %s1 = fadd double %d1, %d2
  %s2 = fadd double %d3, %t
  %s = fadd double %s1, %s2
  ret double %s
}

declare double @__ad_autodiff(ptr, ...)
declare { double, double } @__ad_autodiff_2(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define double @caller(
; CHECK:         call { double, double } @[[BOTHG:f\.ad\.gradient[.0-9]*]](double %x, double %y, double 1.000000e+00)
; CHECK:         call { double, double } @[[BOTHG]](double %y, double %x, double 1.000000e+00)
; CHECK:         call { double } @[[CONSTG:f\.ad\.gradient[.0-9]*]](double %x, double %y, double 1.000000e+00)
; CHECK:         call { double, double } @f.ad.tangent(double %x, double %y, double 1.000000e+00, double 0.000000e+00)
; CHECK-NOT:     @__ad_
; CHECK:         ret double %s

; CHECK-NOT:     define {{.*}}@f.ad.
; The gradient with y constant: only x's adjoint, y * dm.
; CHECK:         define internal { double } @[[CONSTG]](double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[S:%[0-9]+]])
; CHECK-NOT:     %y.adj
; CHECK:         fmul double [[Y]], %m.d
; CHECK-NOT:     %y.adj
; CHECK:         ret { double }
; CHECK-NOT:     define {{.*}}@f.ad.
; CHECK:         define internal { double, double } @[[BOTHG]](
; CHECK-NOT:     define {{.*}}@f.ad.
; CHECK:         define internal { double, double } @f.ad.tangent(
; CHECK-NOT:     define {{.*}}@f.ad.
