; Reverse mode with a struct passed by value (an __ad_out aggregate of
; doubles): the adjoint of extractvalue is inserted into a zero struct at the
; same index and added field by field into the struct's adjoint, which is
; returned whole. f(p) = p.0 * p.1, so dp = { p.1, p.0 }.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f({ double, double } %p) {
entry:
  %a = extractvalue { double, double } %p, 0
  %b = extractvalue { double, double } %p, 1
  %m = fmul double %a, %b
  ret double %m
}

define { double, double } @caller(double %a, double %b) {
entry:
  %p0 = insertvalue { double, double } poison, double %a, 0
  %p = insertvalue { double, double } %p0, double %b, 1
  %g = call { double, double } (ptr, ...) @__ad_autodiff_s(ptr @f, { double, double } %p)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_s(ptr, ...)

; CHECK-LABEL: define { double, double } @caller(
; CHECK:         [[G:%.*]] = call { { double, double } } @f.ad.gradient({ double, double } %p, double 1.000000e+00)
; CHECK-NEXT:    [[D:%.*]] = extractvalue { { double, double } } [[G]], 0
; CHECK-NEXT:    ret { double, double } [[D]]

; CHECK-LABEL: define internal { { double, double } } @f.ad.gradient(
; CHECK-SAME:    { double, double } [[P:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %p.adj = alloca { double, double }
; CHECK:         %a = extractvalue { double, double } [[P]], 0
; CHECK-NEXT:    %b = extractvalue { double, double } [[P]], 1
; CHECK-NEXT:    %m = fmul double %a, %b
; CHECK-LABEL: rev.entry:
; CHECK:         fmul double %b, %m.d
; CHECK:         store double %{{.*}}, ptr %a.adj
; CHECK:         fmul double %a, %m.d
; CHECK:         store double %{{.*}}, ptr %b.adj
; b = p.1: dp += { 0, db }
; CHECK-NEXT:    %b.d = load double, ptr %b.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %b.adj
; CHECK-NEXT:    [[IB:%.*]] = insertvalue { double, double } {{.*}}, double %b.d, 1
; CHECK-NEXT:    [[OLD:%.*]] = load { double, double }, ptr %p.adj
; CHECK-NEXT:    [[O0:%.*]] = extractvalue { double, double } [[OLD]], 0
; CHECK-NEXT:    [[N0:%.*]] = extractvalue { double, double } [[IB]], 0
; CHECK-NEXT:    [[S0:%.*]] = fadd reassoc double [[O0]], [[N0]]
; CHECK-NEXT:    [[W0:%.*]] = insertvalue { double, double } [[OLD]], double [[S0]], 0
; CHECK-NEXT:    [[O1:%.*]] = extractvalue { double, double } [[OLD]], 1
; CHECK-NEXT:    [[N1:%.*]] = extractvalue { double, double } [[IB]], 1
; CHECK-NEXT:    [[S1:%.*]] = fadd reassoc double [[O1]], [[N1]]
; CHECK-NEXT:    [[W1:%.*]] = insertvalue { double, double } [[W0]], double [[S1]], 1
; CHECK-NEXT:    store { double, double } [[W1]], ptr %p.adj
; a = p.0: dp += { da, 0 }
; CHECK-NEXT:    %a.d = load double, ptr %a.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %a.adj
; CHECK-NEXT:    [[IA:%.*]] = insertvalue { double, double } {{.*}}, double %a.d, 0
; CHECK:         store { double, double } %{{.*}}, ptr %p.adj
; CHECK-NEXT:    br label %rev.exit
; CHECK-LABEL: rev.exit:
; CHECK-NEXT:    %p.d = load { double, double }, ptr %p.adj
; CHECK:         [[R:%.*]] = insertvalue { { double, double } } poison, { double, double } %{{.*}}, 0
; CHECK:         ret { { double, double } } [[R]]
