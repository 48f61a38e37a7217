; With ad<O2>, the gradient of a loop (acc = x^n) tapes acc, one double per
; iteration and nothing else: the loop is counted, so the reverse loop counts
; its index down from n - 1 to 0 instead of reading which predecessor the
; header came from. The push and pop helpers are inlined, and the tape's
; capacity is checked once, before the loop, for all its records (the cold
; grow call is there, none is in the loop); the adjoint slots become phis:
; in the reverse loop the adjoint of acc.next, seeded with the seed (1.0,
; which the only call passes: folded into the gradient), is multiplied by x
; each iteration, and x's adjoint accumulates adj * acc,
; with acc read back from the tape.
; RUN: %opt_ad -passes='ad<O2>' -ad-inline-derivatives=false %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

define double @caller(double %x, i32 %n) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %n)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-NOT:     alloca double
; CHECK-NOT:     call ptr @__ad_tape_push
; CHECK-NOT:     call ptr @__ad_tape_pop
; CHECK:         call void @__ad_tape_grow(
; CHECK:         %acc.next = fmul double
; CHECK-NOT:     __ad_tape_grow
; CHECK-NOT:     store i32
; CHECK:         store double %acc, ptr
; CHECK-NOT:     store i32
; CHECK:         [[LAST:%.*]] = add i32 [[N]], -1
; CHECK:         [[AA:%.*]] = phi double {{.*}}[ 1.000000e+00, %rev.loop.preheader ]
; CHECK:         [[AN:%.*]] = fmul double [[X]], [[AA]]
; CHECK:         %acc.saved = load double, ptr
; CHECK:         [[D:%.*]] = fmul double [[AN]], %acc.saved
; CHECK:         %first.iteration = icmp eq i32 %{{.*}}, 0
; CHECK-NOT:     call ptr @__ad_tape_pop
; CHECK:         {{^}}}
