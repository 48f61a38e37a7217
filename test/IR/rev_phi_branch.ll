; Reverse mode of a diamond whose join has a phi. Which predecessor the join
; came from is decided by the branch at the top of the diamond, so its reverse
; block branches on that condition (%c, computed once, used directly; no tape)
; to one reverse edge block per incoming edge, where the phi's adjoint goes to
; that edge's incoming value.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %c = fcmp ogt double %x, 0.0
  br i1 %c, label %then, label %else

then:
  %a = fmul double %x, %y
  br label %join

else:
  %b = fadd double %x, %y
  br label %join

join:
  %p = phi double [ %a, %then ], [ %b, %else ]
  ret double %p
}

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: join:
; CHECK-NEXT:    %from = phi i32 [ 0, %else ], [ 1, %then ]
; CHECK-NEXT:    %p = phi double [ %a, %then ], [ %b, %else ]
; CHECK-NOT:     __ad_tape_push
; CHECK:         br label %rev.join

; The else branch: b = x + y.
; CHECK-LABEL: rev.else:
; CHECK-NEXT:    %b.d = load double, ptr %b.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %b.adj
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    fadd reassoc double [[T0]], %b.d
; CHECK:         [[T1:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    fadd reassoc double [[T1]], %b.d
; CHECK:         br label %rev.entry

; The then branch: a = x * y.
; CHECK-LABEL: rev.then:
; CHECK-NEXT:    %a.d = load double, ptr %a.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %a.adj
; CHECK-NEXT:    [[DX:%.*]] = fmul double [[Y]], %a.d
; CHECK:         fadd reassoc double %{{.*}}, [[DX]]
; CHECK-NEXT:    store double %{{.*}}, ptr %x.adj
; CHECK-NEXT:    [[DY:%.*]] = fmul double [[X]], %a.d
; CHECK:         fadd reassoc double %{{.*}}, [[DY]]
; CHECK-NEXT:    store double %{{.*}}, ptr %y.adj
; CHECK:         br label %rev.entry

; CHECK-LABEL: rev.join:
; CHECK-NEXT:    %p.d = load double, ptr %p.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %p.adj
; CHECK-NEXT:    br i1 %c, label %rev.edge.then.join, label %rev.edge.else.join

; CHECK-LABEL: rev.edge.else.join:
; CHECK-NEXT:    [[E0:%.*]] = load double, ptr %b.adj
; CHECK-NEXT:    [[E1:%.*]] = fadd reassoc double [[E0]], %p.d
; CHECK-NEXT:    store double [[E1]], ptr %b.adj
; CHECK-NEXT:    br label %rev.else

; CHECK-LABEL: rev.edge.then.join:
; CHECK-NEXT:    [[E2:%.*]] = load double, ptr %a.adj
; CHECK-NEXT:    [[E3:%.*]] = fadd reassoc double [[E2]], %p.d
; CHECK-NEXT:    store double [[E3]], ptr %a.adj
; CHECK-NEXT:    br label %rev.then
