; Reverse mode of x * y: each operand's adjoint is the incoming adjoint times
; the OTHER operand. Both arguments default to __ad_out, so the gradient returns
; a struct of two adjoints, which the call site receives as its declared struct.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; The user's function is left as it was.
; CHECK-LABEL: define double @f(double %x, double %y)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %m = fmul double %x, %y
; CHECK-NEXT:    ret double %m

; The call is replaced by a call of the gradient with the seed 1.0.
; CHECK-LABEL: define { double, double } @caller(
; CHECK:         [[R:%.*]] = call { double, double } @f.ad.gradient(double %x, double %y, double 1.000000e+00)
; CHECK-DAG:     [[DX:%.*]] = extractvalue { double, double } [[R]], 0
; CHECK-DAG:     [[DY:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK:         [[T:%.*]] = insertvalue { double, double } poison, double [[DX]], 0
; CHECK-NEXT:    insertvalue { double, double } [[T]], double [[DY]], 1
; CHECK-NOT:     @__ad_autodiff
; CHECK:         ret { double, double }

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; Forward sweep: the primal product, then the seed goes into its adjoint.
; CHECK:         %m = fmul double [[X]], [[Y]]
; CHECK:         [[MA:%.*]] = load double, ptr %m.adj
; CHECK-NEXT:    [[MS:%.*]] = fadd reassoc double [[MA]], [[SEED]]
; CHECK-NEXT:    store double [[MS]], ptr %m.adj
; Reverse sweep: dx += y * dm, dy += x * dm.
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %m.d = load double, ptr %m.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %m.adj
; CHECK-NEXT:    [[PX:%.*]] = fmul double [[Y]], %m.d
; CHECK-NEXT:    [[OX:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[NX:%.*]] = fadd reassoc double [[OX]], [[PX]]
; CHECK-NEXT:    store double [[NX]], ptr %x.adj
; CHECK-NEXT:    [[PY:%.*]] = fmul double [[X]], %m.d
; CHECK-NEXT:    [[OY:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[NY:%.*]] = fadd reassoc double [[OY]], [[PY]]
; CHECK-NEXT:    store double [[NY]], ptr %y.adj
; The adjoints of x and y, in argument order.
; CHECK-LABEL: rev.exit:
; CHECK:         %x.d = load double, ptr %x.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %x.adj
; CHECK-NEXT:    [[XR:%.*]] = fadd double %x.d, 0.000000e+00
; CHECK-NEXT:    [[S0:%.*]] = insertvalue { double, double } poison, double [[XR]], 0
; CHECK:         %y.d = load double, ptr %y.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %y.adj
; CHECK-NEXT:    [[YR:%.*]] = fadd double %y.d, 0.000000e+00
; CHECK-NEXT:    [[S1:%.*]] = insertvalue { double, double } [[S0]], double [[YR]], 1
; CHECK:         ret { double, double } [[S1]]

; The entry point's declaration is gone.
; CHECK-NOT:   declare {{.*}} @__ad_autodiff_d2
