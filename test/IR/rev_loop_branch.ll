; Reverse mode of a loop with a branch inside: s += (a[i] > 0 ? a[i]^2 : a[i]).
; Every executed block pushes its own record and its reverse block pops it
; (loop: the index i, from which the reverse sweep recomputes the shadow
; address da + i, and the header's predecessor; sq: i again, from which v
; is loaded again for the square's adjoint (f writes no memory);
; latch: which of sq/loop it came from). The reverse latch switches to the
; edge block of the path taken, which routes the phi's adjoint to v2 or v.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %a, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %latch ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p
  %pos = fcmp ogt double %v, 0.0
  br i1 %pos, label %sq, label %latch

sq:
  %v2 = fmul double %v, %v
  br label %latch

latch:
  %t = phi double [ %v2, %sq ], [ %v, %loop ]
  %s.next = fadd double %s, %t
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %s.next
}

define void @caller(ptr %a, ptr %da, i64 %n) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %a, ptr %da, i64 %n)
  ret void
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-SAME:    ptr [[A:%[0-9]+]], i64 [[N:%[0-9]+]], ptr [[DA:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: loop:
; CHECK-NEXT:    %from = phi i32 [ 0, %latch ], [ 1, %entry ]
; CHECK:         %p.shadow = getelementptr inbounds double, ptr [[DA]], i64 %i
; CHECK:         [[RL:%.*]] = call ptr @__ad_tape_push(ptr %tape, i64 16)
; CHECK-NEXT:    [[RL0:%.*]] = getelementptr inbounds i8, ptr [[RL]], i64 0
; CHECK-NEXT:    store i64 %i, ptr [[RL0]]
; CHECK-NEXT:    [[RL8:%.*]] = getelementptr inbounds i8, ptr [[RL]], i64 8
; CHECK-NEXT:    store i32 %from, ptr [[RL8]]
; CHECK-NEXT:    br i1 %pos, label %sq, label %latch
; CHECK-LABEL: sq:
; CHECK-NEXT:    %v2 = fmul double %v, %v
; CHECK-NEXT:    [[RS:%.*]] = call ptr @__ad_tape_push(ptr %tape, i64 8)
; CHECK-NEXT:    [[RS0:%.*]] = getelementptr inbounds i8, ptr [[RS]], i64 0
; CHECK-NEXT:    store i64 %i, ptr [[RS0]]
; CHECK-NEXT:    br label %latch
; CHECK-LABEL: latch:
; CHECK-NEXT:    %from1 = phi i32 [ 0, %sq ], [ 1, %loop ]
; CHECK-NEXT:    %t = phi double [ %v2, %sq ], [ %v, %loop ]
; CHECK:         call ptr @__ad_tape_push(ptr %tape,
; CHECK:         store i32 %from1, ptr
; CHECK-NEXT:    br i1 %done, label %exit, label %loop

; CHECK-LABEL: rev.loop:
; CHECK-NEXT:    [[PL:%.*]] = call ptr @__ad_tape_pop(ptr %tape, i64 16)
; CHECK-NEXT:    [[PL0:%.*]] = getelementptr inbounds i8, ptr [[PL]], i64 0
; CHECK-NEXT:    %i.saved = load i64, ptr [[PL0]]
; CHECK-NEXT:    %p.shadow.re = getelementptr inbounds double, ptr [[DA]], i64 %i.saved
; CHECK-NEXT:    [[PL8:%.*]] = getelementptr inbounds i8, ptr [[PL]], i64 8
; CHECK-NEXT:    %from.saved = load i32, ptr [[PL8]]
; v = *p: the shadow of this iteration's element += dv
; CHECK-NEXT:    %v.d = load double, ptr %v.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v.adj
; CHECK-NEXT:    [[SH0:%.*]] = load double, ptr %p.shadow.re
; CHECK-NEXT:    [[SH1:%.*]] = fadd double [[SH0]], %v.d
; CHECK-NEXT:    store double [[SH1]], ptr %p.shadow.re
; CHECK:         switch i32 %from.saved, label %rev.edge.latch.loop [
; CHECK-NEXT:      i32 1, label %rev.edge.entry.loop
; CHECK-NEXT:    ]

; CHECK-LABEL: rev.sq:
; CHECK-NEXT:    [[PS:%.*]] = call ptr @__ad_tape_pop(ptr %tape, i64 8)
; CHECK-NEXT:    [[PS0:%.*]] = getelementptr inbounds i8, ptr [[PS]], i64 0
; CHECK-NEXT:    [[IS:%.*]] = load i64, ptr [[PS0]]
; CHECK-NEXT:    %p.re = getelementptr inbounds double, ptr [[A]], i64 [[IS]]
; CHECK-NEXT:    %v.re = load double, ptr %p.re
; CHECK-NEXT:    %v2.d = load double, ptr %v2.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v2.adj
; CHECK-NEXT:    [[D1:%.*]] = fmul double %v.re, %v2.d
; CHECK:         store double %{{.*}}, ptr %v.adj
; CHECK-NEXT:    [[D2:%.*]] = fmul double %v.re, %v2.d
; CHECK:         store double %{{.*}}, ptr %v.adj
; CHECK-NEXT:    br label %rev.loop

; CHECK-LABEL: rev.latch:
; CHECK-NEXT:    [[PT:%.*]] = call ptr @__ad_tape_pop(ptr %tape, i64 8)
; CHECK:         %from1.saved = load i32, ptr
; CHECK:         %t.d = load double, ptr %t.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %t.adj
; CHECK-NEXT:    switch i32 %from1.saved, label %rev.edge.sq.latch [
; CHECK-NEXT:      i32 1, label %rev.edge.loop.latch
; CHECK-NEXT:    ]

; CHECK-LABEL: rev.edge.latch.loop:
; CHECK-NEXT:    [[E0:%.*]] = load double, ptr %s.next.adj
; CHECK-NEXT:    [[E1:%.*]] = fadd double [[E0]], %s.d
; CHECK-NEXT:    store double [[E1]], ptr %s.next.adj
; CHECK-NEXT:    br label %rev.latch
; CHECK-LABEL: rev.edge.sq.latch:
; CHECK-NEXT:    [[E2:%.*]] = load double, ptr %v2.adj
; CHECK-NEXT:    [[E3:%.*]] = fadd double [[E2]], %t.d
; CHECK-NEXT:    store double [[E3]], ptr %v2.adj
; CHECK-NEXT:    br label %rev.sq
; CHECK-LABEL: rev.edge.loop.latch:
; CHECK-NEXT:    [[E4:%.*]] = load double, ptr %v.adj
; CHECK-NEXT:    [[E5:%.*]] = fadd double [[E4]], %t.d
; CHECK-NEXT:    store double [[E5]], ptr %v.adj
; CHECK-NEXT:    br label %rev.loop
