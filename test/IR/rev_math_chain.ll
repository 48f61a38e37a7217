; Reverse mode through a chain of math functions, intrinsics and libm calls:
;   l = log(sqrt(exp(cos(sin(x)))))
; log: 1/x; sqrt: 0.5/result; exp: the result itself; cos (libm): -sin;
; sin (intrinsic): llvm.cos of the argument.
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %s = call double @llvm.sin.f64(double %x)
  %c = call double @cos(double %s)
  %e = call double @llvm.exp.f64(double %c)
  %r = call double @llvm.sqrt.f64(double %e)
  %l = call double @log(double %r)
  ret double %l
}

declare double @llvm.sin.f64(double)
declare double @cos(double)
declare double @llvm.exp.f64(double)
declare double @llvm.sqrt.f64(double)
declare double @log(double)

define double @caller(double %x) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; A single __ad_out argument: the gradient returns a one-field struct and the
; caller gets that field.
; CHECK-LABEL: define double @caller(
; CHECK:         [[G:%.*]] = call { double } @f.ad.gradient(double %x, double 1.000000e+00)
; CHECK-NEXT:    [[D:%.*]] = extractvalue { double } [[G]], 0
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %s = call double @llvm.sin.f64(double [[X]])
; CHECK-NEXT:    %c = call double @cos(double %s)
; CHECK-NEXT:    %e = call double @llvm.exp.f64(double %c)
; CHECK-NEXT:    %r = call double @llvm.sqrt.f64(double %e)
; CHECK-NEXT:    %l = call double @log(double %r)
; CHECK-LABEL: rev.entry:
; log: dr += (1 / r) * dl
; CHECK:         %l.d = load double, ptr %l.adj
; CHECK:         [[RR:%.*]] = fdiv double 1.000000e+00, %r
; CHECK-NEXT:    [[DR:%.*]] = fmul double [[RR]], %l.d
; CHECK:         fadd reassoc double %{{.*}}, [[DR]]
; CHECK-NEXT:    store double %{{.*}}, ptr %r.adj
; sqrt: de += (0.5 / r) * dr, reusing the primal result r
; CHECK:         %r.d = load double, ptr %r.adj
; CHECK:         [[H:%.*]] = fdiv double 5.000000e-01, %r
; CHECK-NEXT:    [[DE:%.*]] = fmul double [[H]], %r.d
; CHECK:         fadd reassoc double %{{.*}}, [[DE]]
; CHECK-NEXT:    store double %{{.*}}, ptr %e.adj
; exp: dc += e * de, no second exp
; CHECK:         %e.d = load double, ptr %e.adj
; CHECK-NOT:     @llvm.exp
; CHECK:         [[DC:%.*]] = fmul double %e, %e.d
; CHECK:         fadd reassoc double %{{.*}}, [[DC]]
; CHECK-NEXT:    store double %{{.*}}, ptr %c.adj
; cos: ds += -sin(s) * dc
; CHECK:         %c.d = load double, ptr %c.adj
; CHECK:         [[SIN:%.*]] = call double @llvm.sin.f64(double %s)
; CHECK-NEXT:    [[NSIN:%.*]] = fneg double [[SIN]]
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[NSIN]], %c.d
; CHECK:         fadd reassoc double %{{.*}}, [[DS]]
; CHECK-NEXT:    store double %{{.*}}, ptr %s.adj
; sin: dx += cos(x) * ds
; CHECK:         %s.d = load double, ptr %s.adj
; CHECK:         [[COS:%.*]] = call double @llvm.cos.f64(double [[X]])
; CHECK-NEXT:    [[DX:%.*]] = fmul double [[COS]], %s.d
; CHECK:         fadd reassoc double %{{.*}}, [[DX]]
; CHECK-NEXT:    store double %{{.*}}, ptr %x.adj
; CHECK-NEXT:    br label %rev.exit
; CHECK-LABEL: rev.exit:
; CHECK:         %x.d = load double, ptr %x.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %x.adj
; CHECK-NEXT:    [[XR:%.*]] = fadd double %x.d, 0.000000e+00
; CHECK-NEXT:    insertvalue { double } poison, double [[XR]], 0
