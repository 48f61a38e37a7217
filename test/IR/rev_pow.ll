; Reverse mode of pow(x, y): both partials.
;   dx += y * pow(x, y - 1) * dp
;   dy += (p == 0 ? 0 : p * log(x)) * dp, reusing the primal result p
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %p = call double @pow(double %x, double %y)
  ret double %p
}

declare double @pow(double, double)

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %p = call double @pow(double [[X]], double [[Y]])
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %p.d = load double, ptr %p.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %p.adj
; CHECK-NEXT:    [[YM1:%.*]] = fsub double [[Y]], 1.000000e+00
; CHECK-NEXT:    [[PW:%.*]] = call double @llvm.pow.f64(double [[X]], double [[YM1]])
; CHECK-NEXT:    [[PX:%.*]] = fmul double [[Y]], [[PW]]
; CHECK-NEXT:    [[DX:%.*]] = fmul double [[PX]], %p.d
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DX]]
; CHECK-NEXT:    store double [[T1]], ptr %x.adj
; CHECK-NEXT:    [[LOG:%.*]] = call double @llvm.log.f64(double [[X]])
; CHECK-NEXT:    [[PL:%.*]] = fmul double %p, [[LOG]]
; CHECK-NEXT:    [[ZERO:%.*]] = fcmp oeq double %p, 0.000000e+00
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ZERO]], double 0.000000e+00, double [[PL]]
; CHECK-NEXT:    [[DY:%.*]] = fmul double [[PY]], %p.d
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[DY]]
; CHECK-NEXT:    store double [[T3]], ptr %y.adj
; CHECK-NEXT:    br label %rev.exit
