; Reverse mode of frem, copysign and powi:
;   r = frem(x, y)        dx += dr,  dy += -trunc(x / y) dr
;   c = copysign(r, y)    dr += copysign(1, r) * copysign(1, y) dc; y gets none
;   p = powi(c, 3)        dc += 3 * powi(c, 2) dp
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %r = frem double %x, %y
  %c = call double @llvm.copysign.f64(double %r, double %y)
  %p = call double @llvm.powi.f64.i32(double %c, i32 3)
  ret double %p
}

declare double @llvm.copysign.f64(double, double)
declare double @llvm.powi.f64.i32(double, i32)

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: rev.entry:
; powi(c, 3)
; CHECK-NEXT:    %p.d = load double, ptr %p.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %p.adj
; CHECK-NEXT:    [[SQ:%.*]] = call double @llvm.powi.f64.i32(double %c, i32 2)
; CHECK-NEXT:    [[P3:%.*]] = fmul double 3.000000e+00, [[SQ]]
; CHECK-NEXT:    [[DC:%.*]] = fmul double [[P3]], %p.d
; CHECK:         fadd reassoc double %{{.*}}, [[DC]]
; CHECK-NEXT:    store double %{{.*}}, ptr %c.adj
; copysign(r, y): only r gets an adjoint
; CHECK-NEXT:    %c.d = load double, ptr %c.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %c.adj
; CHECK-NEXT:    [[SY:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double [[Y]])
; CHECK-NEXT:    [[SR:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %r)
; CHECK-NEXT:    [[SS:%.*]] = fmul double [[SR]], [[SY]]
; CHECK-NEXT:    [[DR:%.*]] = fmul double [[SS]], %c.d
; CHECK-NEXT:    [[R0:%.*]] = load double, ptr %r.adj
; CHECK-NEXT:    [[R1:%.*]] = fadd reassoc double [[R0]], [[DR]]
; CHECK-NEXT:    store double [[R1]], ptr %r.adj
; frem(x, y)
; CHECK-NEXT:    %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[X0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[X1:%.*]] = fadd reassoc double [[X0]], %r.d
; CHECK-NEXT:    store double [[X1]], ptr %x.adj
; CHECK-NEXT:    [[Q:%.*]] = fdiv double [[X]], [[Y]]
; CHECK-NEXT:    [[TQ:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; CHECK-NEXT:    [[NTQ:%.*]] = fneg double [[TQ]]
; CHECK-NEXT:    [[DY:%.*]] = fmul double [[NTQ]], %r.d
; CHECK-NEXT:    [[Y0:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[Y1:%.*]] = fadd reassoc double [[Y0]], [[DY]]
; CHECK-NEXT:    store double [[Y1]], ptr %y.adj
; CHECK-NEXT:    br label %rev.exit
