; Forward mode of a loop: the tangent is carried around the loop by a tangent
; phi beside the primal phi (entry edge: dx; back edge: the new tangent).
; acc' = sin(acc) * x: d(acc') = x * cos(acc) * dacc + sin(acc) * dx.
; No tape in forward mode.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ %x, %entry ], [ %acc.next, %loop ]
  %s = call double @llvm.sin.f64(double %acc)
  %acc.next = fmul double %s, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

declare double @llvm.sin.f64(double)

define double @caller(double %x, i32 %n) {
entry:
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double 1.0, i32 %n)
  ret double %t
}

declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define double @caller(
; CHECK:         call { double, double } @f.ad.tangent(double %x, i32 %n, double 1.000000e+00)

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[DX:%[0-9]+]])
; CHECK-NOT:     __ad_tape
; CHECK-LABEL: loop:
; CHECK-DAG:     %acc.d = phi double [ [[DX]], %entry ], [ [[DNEXT:%[0-9]+]], %loop ]
; CHECK-DAG:     %acc = phi double [ [[X]], %entry ], [ %acc.next, %loop ]
; CHECK:         %s = call double @llvm.sin.f64(double %acc)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %acc)
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[COS]], %acc.d
; CHECK-NEXT:    %acc.next = fmul double %s, [[X]]
; CHECK-NEXT:    [[T0:%.*]] = fmul double [[X]], [[DS]]
; CHECK-NEXT:    [[T1:%.*]] = fmul double %s, [[DX]]
; CHECK-NEXT:    [[DNEXT]] = fadd double [[T0]], [[T1]]
; CHECK-LABEL: exit:
; CHECK-NEXT:    [[R0:%.*]] = insertvalue { double, double } poison, double %acc.next, 0
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DNEXT]], 1
; CHECK-NEXT:    ret { double, double } [[R1]]
; CHECK-NOT:     __ad_tape
