; Reverse mode of three intrinsics:
;   a = fabs(x)            da -> dx * (x < 0 ? -1 : 1)
;   m = maxnum(a, y)       dm -> da if m == a, else -> dy
;   r = fmuladd(m, x, y)   dm += x dr, dx += m dr, dy += dr
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %a = call double @llvm.fabs.f64(double %x)
  %m = call double @llvm.maxnum.f64(double %a, double %y)
  %r = call double @llvm.fmuladd.f64(double %m, double %x, double %y)
  ret double %r
}

declare double @llvm.fabs.f64(double)
declare double @llvm.maxnum.f64(double, double)
declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: rev.entry:
; fmuladd
; CHECK:         %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[DM:%.*]] = fmul double [[X]], %r.d
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %m.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DM]]
; CHECK-NEXT:    store double [[T1]], ptr %m.adj
; CHECK-NEXT:    [[DX:%.*]] = fmul double %m, %r.d
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[DX]]
; CHECK-NEXT:    store double [[T3]], ptr %x.adj
; CHECK-NEXT:    [[T4:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T5:%.*]] = fadd reassoc double [[T4]], %r.d
; CHECK-NEXT:    store double [[T5]], ptr %y.adj
; maxnum
; CHECK-NEXT:    %m.d = load double, ptr %m.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %m.adj
; CHECK-NEXT:    [[PA:%.*]] = fcmp oeq double %m, %a
; CHECK-NEXT:    [[IA:%.*]] = select i1 [[PA]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[DA:%.*]] = fmul double [[IA]], %m.d
; CHECK-NEXT:    [[T6:%.*]] = load double, ptr %a.adj
; CHECK-NEXT:    [[T7:%.*]] = fadd reassoc double [[T6]], [[DA]]
; CHECK-NEXT:    store double [[T7]], ptr %a.adj
; CHECK-NEXT:    [[PA2:%.*]] = fcmp oeq double %m, %a
; CHECK-NEXT:    [[PY:%.*]] = xor i1 [[PA2]], true
; CHECK-NEXT:    [[IY:%.*]] = select i1 [[PY]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[DY:%.*]] = fmul double [[IY]], %m.d
; CHECK-NEXT:    [[T8:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T9:%.*]] = fadd reassoc double [[T8]], [[DY]]
; CHECK-NEXT:    store double [[T9]], ptr %y.adj
; fabs
; CHECK-NEXT:    %a.d = load double, ptr %a.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %a.adj
; CHECK-NEXT:    [[NEG:%.*]] = fcmp olt double [[X]], 0.000000e+00
; CHECK-NEXT:    [[SGN:%.*]] = select i1 [[NEG]], double -1.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[DXA:%.*]] = fmul double [[SGN]], %a.d
; CHECK-NEXT:    [[U0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[U1:%.*]] = fadd reassoc double [[U0]], [[DXA]]
; CHECK-NEXT:    store double [[U1]], ptr %x.adj
; CHECK-NEXT:    br label %rev.exit
