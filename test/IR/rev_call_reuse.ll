; Reverse mode of a function calling a helper twice with the same activity:
; one augmented forward sweep and one adjoint of sq are synthesized and called
; at both sites. The forward sweep calls the augmented function with the
; shared tape; the reverse sweep calls the adjoints in reverse order (b's
; first), each with the adjoint of that call's result.
; d/dx (x^2 * y^2) = 2x * y^2: sq's adjoint is 2 v dr, with v from the tape.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s --check-prefix=ONCE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sq(double %v) {
entry:
  %r = fmul double %v, %v
  ret double %r
}

define double @f(double %x, double %y) {
entry:
  %a = call double @sq(double %x)
  %b = call double @sq(double %y)
  %s = fmul double %a, %b
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
; CHECK:         [[A:%.*]] = call double @sq.ad.augmented(double [[X]], ptr %tape)
; CHECK-NEXT:    [[B:%.*]] = call double @sq.ad.augmented(double [[Y]], ptr %tape)
; CHECK-NEXT:    %s = fmul double [[A]], [[B]]
; CHECK-LABEL: rev.entry:
; CHECK:         fmul double [[B]], %s.d
; CHECK:         store double %{{.*}}, ptr %a.adj
; CHECK:         fmul double [[A]], %s.d
; CHECK:         store double %{{.*}}, ptr %b.adj
; CHECK:         %b.d = load double, ptr %b.adj
; CHECK:         [[RB:%.*]] = call { double } @sq.ad.adjoint(double %b.d, ptr %tape)
; CHECK-NEXT:    [[DY:%.*]] = extractvalue { double } [[RB]], 0
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DY]]
; CHECK-NEXT:    store double [[T1]], ptr %y.adj
; CHECK:         %a.d = load double, ptr %a.adj
; CHECK:         [[RA:%.*]] = call { double } @sq.ad.adjoint(double %a.d, ptr %tape)
; CHECK-NEXT:    [[DX:%.*]] = extractvalue { double } [[RA]], 0
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[DX]]
; CHECK-NEXT:    store double [[T3]], ptr %x.adj

; The augmented sweep computes the primal and records its argument.
; CHECK-LABEL: define internal double @sq.ad.augmented(
; CHECK-SAME:    double [[V:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = fmul double [[V]], [[V]]
; CHECK-NEXT:    [[REC:%.*]] = call ptr @__ad_tape_push(ptr [[TAPE]], i64 8)
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 0
; CHECK-NEXT:    store double [[V]], ptr [[P]]
; CHECK-NEXT:    ret double %r

; The adjoint takes the result's adjoint and the tape, pops the record and
; returns dv = v * dr + v * dr.
; CHECK-LABEL: define internal { double } @sq.ad.adjoint(
; CHECK-SAME:    double [[DR:%[0-9]+]], ptr [[TAPE2:%[0-9]+]])
; CHECK:         fadd reassoc double %{{.*}}, [[DR]]
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    [[POP:%.*]] = call ptr @__ad_tape_pop(ptr [[TAPE2]], i64 8)
; CHECK-NEXT:    [[Q:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 0
; CHECK-NEXT:    [[VS:%.*]] = load double, ptr [[Q]]
; CHECK-NEXT:    %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[D1:%.*]] = fmul double [[VS]], %r.d
; CHECK:         fadd reassoc double %{{.*}}, [[D1]]
; CHECK-NEXT:    store double %{{.*}}, ptr %v.adj
; CHECK-NEXT:    [[D2:%.*]] = fmul double [[VS]], %r.d
; CHECK:         fadd reassoc double %{{.*}}, [[D2]]
; CHECK-NEXT:    store double %{{.*}}, ptr %v.adj
; CHECK-LABEL: rev.exit:
; CHECK:         %v.d = load double, ptr %v.adj
; CHECK:         ret { double }

; Exactly one definition of each derivative of sq.
; ONCE-NOT:     define {{.*}}@sq.ad.
; ONCE:         define internal double @sq.ad.augmented(
; ONCE-NOT:     define {{.*}}@sq.ad.
; ONCE:         define internal { double } @sq.ad.adjoint(
; ONCE-NOT:     define {{.*}}@sq.ad.
