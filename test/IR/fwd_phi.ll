; Forward mode of a branch: each incoming value's tangent is computed in its
; block and merged by a tangent phi beside the primal phi (p.d). The tangent of
; the product is y*dx + x*dy; on the other edge the tangent is dy itself.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %c = fcmp ogt double %x, 0.0
  br i1 %c, label %then, label %join

then:
  %a = fmul double %x, %y
  br label %join

join:
  %p = phi double [ %a, %then ], [ %y, %entry ]
  ret double %p
}

define double @caller(double %x, double %dx, double %y, double %dy) {
entry:
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

declare double @__ad_fwddiff(ptr, ...)

; Floating-point arguments default to dup in forward mode: primals, then
; tangents; the caller gets field 1 (the tangent of the return).
; CHECK-LABEL: define double @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call { double, double } @f.ad.tangent(double %x, double %y, double %dx, double %dy)
; CHECK-NEXT:    [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-NEXT:    ret double [[T]]

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DX:%[0-9]+]], double [[DY:%[0-9]+]])
; CHECK-NOT:     @__ad_tape
; CHECK-LABEL: then:
; CHECK-NEXT:    %a = fmul double [[X]], [[Y]]
; CHECK-NEXT:    [[T0:%.*]] = fmul double [[Y]], [[DX]]
; CHECK-NEXT:    [[T1:%.*]] = fmul double [[X]], [[DY]]
; CHECK-NEXT:    [[DA:%.*]] = fadd double [[T0]], [[T1]]
; CHECK-NEXT:    br label %join
; CHECK-LABEL: join:
; CHECK-DAG:     %p.d = phi double [ [[DA]], %then ], [ [[DY]], %entry ]
; CHECK-DAG:     %p = phi double [ %a, %then ], [ [[Y]], %entry ]
; CHECK:         [[S0:%.*]] = insertvalue { double, double } poison, double %p, 0
; CHECK-NEXT:    [[S1:%.*]] = insertvalue { double, double } [[S0]], double %p.d, 1
; CHECK-NEXT:    ret { double, double } [[S1]]
