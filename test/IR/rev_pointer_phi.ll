; Reverse mode with a phi of pointers: the shadow pointer gets its own phi with
; the shadows of the same incoming pointers on the same edges, and the reverse
; sweep uses it both for the store (read and zero) and for the load (+=).
; f returns m and also stores it through p, so dm = seed + old *p.shadow.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %a, ptr %b, double %x) {
entry:
  %c = fcmp ogt double %x, 0.0
  br i1 %c, label %l, label %r

l:
  br label %j

r:
  br label %j

j:
  %p = phi ptr [ %a, %l ], [ %b, %r ]
  %v = load double, ptr %p
  %m = fmul double %v, %x
  store double %m, ptr %p
  ret double %m
}

define double @caller(ptr %a, ptr %da, ptr %b, ptr %db, double %x) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db, double %x)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    ptr [[A:%[0-9]+]], ptr [[B:%[0-9]+]], double [[X:%[0-9]+]], ptr [[DA:%[0-9]+]], ptr [[DB:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: j:
; CHECK-DAG:     %p.shadow = phi ptr [ [[DA]], %l ], [ [[DB]], %r ]
; CHECK-DAG:     %p = phi ptr [ [[A]], %l ], [ [[B]], %r ]
; CHECK:         %v = load double, ptr %p
; CHECK-NEXT:    %m = fmul double %v, [[X]]
; CHECK-NEXT:    store double %m, ptr %p
; CHECK:         fadd reassoc double %{{.*}}, [[SEED]]
; CHECK-LABEL: rev.j:
; store m to p
; CHECK:         [[S:%.*]] = load double, ptr %p.shadow
; CHECK-NEXT:    store double 0.000000e+00, ptr %p.shadow
; CHECK-NEXT:    [[M0:%.*]] = load double, ptr %m.adj
; CHECK-NEXT:    [[M1:%.*]] = fadd reassoc double [[M0]], [[S]]
; CHECK-NEXT:    store double [[M1]], ptr %m.adj
; m = v * x
; CHECK-NEXT:    %m.d = load double, ptr %m.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %m.adj
; CHECK-NEXT:    [[DV:%.*]] = fmul double [[X]], %m.d
; CHECK:         store double %{{.*}}, ptr %v.adj
; CHECK-NEXT:    [[DX:%.*]] = fmul double %v, %m.d
; CHECK:         store double %{{.*}}, ptr %x.adj
; v = *p
; CHECK-NEXT:    %v.d = load double, ptr %v.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v.adj
; CHECK-NEXT:    [[L0:%.*]] = load double, ptr %p.shadow
; CHECK-NEXT:    [[L1:%.*]] = fadd reassoc double [[L0]], %v.d
; CHECK-NEXT:    store double [[L1]], ptr %p.shadow
; Which side of the branch ran is its condition, recomputed (no tape).
; CHECK-NEXT:    br i1 %c, label %rev.edge.l.j, label %rev.edge.r.j
