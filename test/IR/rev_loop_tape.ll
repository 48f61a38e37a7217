; Reverse mode of a loop of unknown trip count: acc = x^k by repeated
; multiplication until it exceeds 100 or k = n, a count that depends on the
; values computed, so the loop is not counted (CountedLoops.cpp) and its
; reverse follows the tape. Each executed iteration pushes one record holding the value
; the reverse sweep needs (acc, the other operand of the fmul) and which
; predecessor the loop header came from; the loop's reverse block pops it,
; and switches on it to the back edge (adjoint of acc flows to acc.next) or
; to the entry edge (constant 1.0: nothing to add).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

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
  %big = fcmp ogt double %acc.next, 100.0
  %count = icmp eq i32 %i.next, %n
  %done = or i1 %big, %count
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

; The integer argument defaults to __ad_const: one adjoint, of x.
define double @caller(double %x, i32 %n) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %n)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define double @caller(
; CHECK:         call { double } @f.ad.gradient(double %x, i32 %n, double 1.000000e+00)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-NOT:     %n.adj
; CHECK-NOT:     %i.adj
; CHECK-LABEL: loop:
; CHECK-NEXT:    %from = phi i32 [ 0, %loop ], [ 1, %entry ]
; CHECK-NEXT:    %i = phi i32
; CHECK-NEXT:    %acc = phi double [ 1.000000e+00, %entry ], [ %acc.next, %loop ]
; CHECK-NEXT:    %acc.next = fmul double %acc, [[X]]
; CHECK:         [[REC:%.*]] = call ptr @__ad_tape_push(ptr %tape, i64 12)
; CHECK-NEXT:    [[A0:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 0
; CHECK-NEXT:    store double %acc, ptr [[A0]]
; CHECK-NEXT:    [[A1:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 8
; CHECK-NEXT:    store i32 %from, ptr [[A1]]
; CHECK-NEXT:    br i1 %done, label %exit, label %loop

; Only the loop body pushes.
; CHECK-LABEL: exit:
; CHECK-NOT:     @__ad_tape_push
; CHECK:         fadd reassoc double %{{.*}}, [[SEED]]

; CHECK-LABEL: rev.loop:
; CHECK-NEXT:    [[POP:%.*]] = call ptr @__ad_tape_pop(ptr %tape, i64 12)
; CHECK-NEXT:    [[P0:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 0
; CHECK-NEXT:    %acc.saved = load double, ptr [[P0]]
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 8
; CHECK-NEXT:    %from.saved = load i32, ptr [[P1]]
; CHECK-NEXT:    %acc.next.d = load double, ptr %acc.next.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %acc.next.adj
; d(acc) += x * d(acc.next)
; CHECK-NEXT:    [[DACC:%.*]] = fmul double [[X]], %acc.next.d
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %acc.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DACC]]
; CHECK-NEXT:    store double [[T1]], ptr %acc.adj
; dx += acc (this iteration's, from the tape) * d(acc.next)
; CHECK-NEXT:    [[DX:%.*]] = fmul double %acc.saved, %acc.next.d
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[DX]]
; CHECK-NEXT:    store double [[T3]], ptr %x.adj
; CHECK-NEXT:    %acc.d = load double, ptr %acc.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %acc.adj
; CHECK-NEXT:    switch i32 %from.saved, label %rev.edge.loop.loop [
; CHECK-NEXT:      i32 1, label %rev.edge.entry.loop
; CHECK-NEXT:    ]

; CHECK-LABEL: rev.edge.loop.loop:
; CHECK-NEXT:    [[B0:%.*]] = load double, ptr %acc.next.adj
; CHECK-NEXT:    [[B1:%.*]] = fadd reassoc double [[B0]], %acc.d
; CHECK-NEXT:    store double [[B1]], ptr %acc.next.adj
; CHECK-NEXT:    br label %rev.loop

; CHECK-LABEL: rev.edge.entry.loop:
; CHECK-NEXT:    br label %rev.entry
