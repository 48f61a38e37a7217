; Reverse mode of a select (min(x, y) written as compare + select): the
; adjoint goes to the operand the condition chose, through selects on the same
; primal condition (true -> x, false -> y).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %c = fcmp olt double %x, %y
  %m = select i1 %c, double %x, double %y
  ret double %m
}

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %c = fcmp olt double [[X]], [[Y]]
; CHECK-NEXT:    %m = select i1 %c, double [[X]], double [[Y]]
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %m.d = load double, ptr %m.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %m.adj
; CHECK-NEXT:    [[DX:%.*]] = select i1 %c, double %m.d, double {{-?}}0.000000e+00
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DX]]
; CHECK-NEXT:    store double [[T1]], ptr %x.adj
; CHECK-NEXT:    [[DY:%.*]] = select i1 %c, double {{-?}}0.000000e+00, double %m.d
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[DY]]
; CHECK-NEXT:    store double [[T3]], ptr %y.adj
; CHECK-NEXT:    br label %rev.exit
