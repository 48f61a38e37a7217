; Forward mode through fdiv, sin, exp, fneg and fsub:
;   d = -exp(sin(x / y)) - y
; dq = (1/y) dx + (-(q / y)) dy; ds = cos(q) dq; de = e ds (exp reuses its
; result); dn = -de; dd = dn - dy. (Strong-zero guards off: this test checks
; the partials; strong_zero.ll checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %q = fdiv double %x, %y
  %s = call double @llvm.sin.f64(double %q)
  %e = call double @exp(double %s)
  %n = fneg double %e
  %d = fsub double %n, %y
  ret double %d
}

declare double @llvm.sin.f64(double)
declare double @exp(double)

define double @caller(double %x, double %dx, double %y, double %dy) {
entry:
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DX:%[0-9]+]], double [[DY:%[0-9]+]])
; CHECK:         %q = fdiv double [[X]], [[Y]]
; CHECK-NEXT:    [[RY:%.*]] = fdiv double 1.000000e+00, [[Y]]
; CHECK-NEXT:    [[T0:%.*]] = fmul double [[RY]], [[DX]]
; CHECK-NEXT:    [[RY2:%.*]] = fdiv double 1.000000e+00, [[Y]]
; CHECK-NEXT:    [[QY:%.*]] = fmul double %q, [[RY2]]
; CHECK-NEXT:    [[NQY:%.*]] = fneg double [[QY]]
; CHECK-NEXT:    [[T1:%.*]] = fmul double [[NQY]], [[DY]]
; CHECK-NEXT:    [[DQ:%.*]] = fadd double [[T0]], [[T1]]
; CHECK-NEXT:    %s = call double @llvm.sin.f64(double %q)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %q)
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[COS]], [[DQ]]
; CHECK-NEXT:    %e = call double @exp(double %s)
; CHECK-NEXT:    [[DE:%.*]] = fmul double %e, [[DS]]
; CHECK-NEXT:    %n = fneg double %e
; CHECK-NEXT:    [[DN:%.*]] = fneg double [[DE]]
; CHECK-NEXT:    %d = fsub double %n, [[Y]]
; CHECK-NEXT:    [[T3:%.*]] = fneg double [[DY]]
; CHECK-NEXT:    [[DD:%.*]] = fadd double [[DN]], [[T3]]
; CHECK-NEXT:    [[R0:%.*]] = insertvalue { double, double } poison, double %d, 0
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DD]], 1
; CHECK-NEXT:    ret { double, double } [[R1]]
