; Reverse mode of libm functions with two-argument rules:
;   t = tanh(x)         dx += (1 - t*t) dt          (reuses the result)
;   a = atan2(t, y)     dt += y / (t*t + y*y) da,  dy += -(t / (t*t + y*y)) da
;   h = hypot(a, y)     da += (a / h) dh,          dy += (y / h) dh
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %t = call double @tanh(double %x)
  %a = call double @atan2(double %t, double %y)
  %h = call double @hypot(double %a, double %y)
  ret double %h
}

declare double @tanh(double)
declare double @atan2(double, double)
declare double @hypot(double, double)

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: rev.entry:
; hypot
; CHECK:         %h.d = load double, ptr %h.adj
; CHECK:         [[HA:%.*]] = fdiv double %a, %h
; CHECK-NEXT:    [[DA:%.*]] = fmul double [[HA]], %h.d
; CHECK:         fadd reassoc double %{{.*}}, [[DA]]
; CHECK-NEXT:    store double %{{.*}}, ptr %a.adj
; CHECK-NEXT:    [[HY:%.*]] = fdiv double [[Y]], %h
; CHECK-NEXT:    [[DY1:%.*]] = fmul double [[HY]], %h.d
; CHECK:         fadd reassoc double %{{.*}}, [[DY1]]
; CHECK-NEXT:    store double %{{.*}}, ptr %y.adj
; atan2
; CHECK-NEXT:    %a.d = load double, ptr %a.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %a.adj
; CHECK-NEXT:    [[YY:%.*]] = fmul double [[Y]], [[Y]]
; CHECK-NEXT:    [[TT:%.*]] = fmul double %t, %t
; CHECK-NEXT:    [[DEN:%.*]] = fadd double [[TT]], [[YY]]
; CHECK-NEXT:    [[PT:%.*]] = fdiv double [[Y]], [[DEN]]
; CHECK-NEXT:    [[DT:%.*]] = fmul double [[PT]], %a.d
; CHECK:         fadd reassoc double %{{.*}}, [[DT]]
; CHECK-NEXT:    store double %{{.*}}, ptr %t.adj
; CHECK-NEXT:    [[YY2:%.*]] = fmul double [[Y]], [[Y]]
; CHECK-NEXT:    [[TT2:%.*]] = fmul double %t, %t
; CHECK-NEXT:    [[DEN2:%.*]] = fadd double [[TT2]], [[YY2]]
; CHECK-NEXT:    [[Q:%.*]] = fdiv double %t, [[DEN2]]
; CHECK-NEXT:    [[PY:%.*]] = fneg double [[Q]]
; CHECK-NEXT:    [[DY2:%.*]] = fmul double [[PY]], %a.d
; CHECK:         fadd reassoc double %{{.*}}, [[DY2]]
; CHECK-NEXT:    store double %{{.*}}, ptr %y.adj
; tanh
; CHECK-NEXT:    %t.d = load double, ptr %t.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %t.adj
; CHECK-NEXT:    [[T2:%.*]] = fmul double %t, %t
; CHECK-NEXT:    [[OM:%.*]] = fsub double 1.000000e+00, [[T2]]
; CHECK-NEXT:    [[DX:%.*]] = fmul double [[OM]], %t.d
; CHECK:         fadd reassoc double %{{.*}}, [[DX]]
; CHECK-NEXT:    store double %{{.*}}, ptr %x.adj
; CHECK-NEXT:    br label %rev.exit
