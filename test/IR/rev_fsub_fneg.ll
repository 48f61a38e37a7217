; Reverse mode of fadd, fsub and fneg: s = -(x - y) + x.
; fadd passes its adjoint to both operands, fsub negates it for the
; subtrahend, fneg negates it. x is used twice, so its adjoint accumulates.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %d = fsub double %x, %y
  %n = fneg double %d
  %s = fadd double %n, %x
  ret double %s
}

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %d = fsub double [[X]], [[Y]]
; CHECK-NEXT:    %n = fneg double %d
; CHECK-NEXT:    %s = fadd double %n, [[X]]
; CHECK-LABEL: rev.entry:
; s = n + x: dn += ds, dx += ds (no multiplication by 1).
; CHECK-NEXT:    %s.d = load double, ptr %s.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %s.adj
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %n.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], %s.d
; CHECK-NEXT:    store double [[T1]], ptr %n.adj
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], %s.d
; CHECK-NEXT:    store double [[T3]], ptr %x.adj
; n = -d: dd += -dn.
; CHECK-NEXT:    %n.d = load double, ptr %n.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %n.adj
; CHECK-NEXT:    [[NN:%.*]] = fneg double %n.d
; CHECK-NEXT:    [[T4:%.*]] = load double, ptr %d.adj
; CHECK-NEXT:    [[T5:%.*]] = fadd reassoc double [[T4]], [[NN]]
; CHECK-NEXT:    store double [[T5]], ptr %d.adj
; d = x - y: dx += dd, dy += -dd.
; CHECK-NEXT:    %d.d = load double, ptr %d.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %d.adj
; CHECK-NEXT:    [[T6:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T7:%.*]] = fadd reassoc double [[T6]], %d.d
; CHECK-NEXT:    store double [[T7]], ptr %x.adj
; CHECK-NEXT:    [[ND:%.*]] = fneg double %d.d
; CHECK-NEXT:    [[T8:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T9:%.*]] = fadd reassoc double [[T8]], [[ND]]
; CHECK-NEXT:    store double [[T9]], ptr %y.adj
; CHECK-NEXT:    br label %rev.exit
