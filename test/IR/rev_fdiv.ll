; Reverse mode of q = a / b: da += dq * (1 / b), db += dq * -(q * (1 / b))
; (from the result, so that a need not be kept when q is at hand).
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %a, double %b) {
entry:
  %q = fdiv double %a, %b
  ret double %q
}

define { double, double } @caller(double %a, double %b) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %a, double %b)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define { double, double } @caller(
; CHECK:         call { double, double } @f.ad.gradient(double %a, double %b, double 1.000000e+00)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[A:%[0-9]+]], double [[B:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %q = fdiv double [[A]], [[B]]
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %q.d = load double, ptr %q.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %q.adj
; da: 1/b times the incoming adjoint.
; CHECK-NEXT:    [[RB:%.*]] = fdiv double 1.000000e+00, [[B]]
; CHECK-NEXT:    [[DA:%.*]] = fmul double [[RB]], %q.d
; CHECK-NEXT:    [[OA:%.*]] = load double, ptr %a.adj
; CHECK-NEXT:    [[NA:%.*]] = fadd reassoc double [[OA]], [[DA]]
; CHECK-NEXT:    store double [[NA]], ptr %a.adj
; db: -(q / b) times the incoming adjoint.
; CHECK-NEXT:    [[RB2:%.*]] = fdiv double 1.000000e+00, [[B]]
; CHECK-NEXT:    [[QOB:%.*]] = fmul double %q, [[RB2]]
; CHECK-NEXT:    [[NEG:%.*]] = fneg double [[QOB]]
; CHECK-NEXT:    [[DB:%.*]] = fmul double [[NEG]], %q.d
; CHECK-NEXT:    [[OB:%.*]] = load double, ptr %b.adj
; CHECK-NEXT:    [[NB:%.*]] = fadd reassoc double [[OB]], [[DB]]
; CHECK-NEXT:    store double [[NB]], ptr %b.adj
; CHECK-NEXT:    br label %rev.exit
; CHECK-LABEL: rev.exit:
; CHECK:         %a.d = load double, ptr %a.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %a.adj
; CHECK-NEXT:    [[AR:%.*]] = fadd double %a.d, 0.000000e+00
; CHECK-NEXT:    [[S0:%.*]] = insertvalue { double, double } poison, double [[AR]], 0
; CHECK:         %b.d = load double, ptr %b.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %b.adj
; CHECK-NEXT:    [[BR:%.*]] = fadd double %b.d, 0.000000e+00
; CHECK-NEXT:    insertvalue { double, double } [[S0]], double [[BR]], 1
