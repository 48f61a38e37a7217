; Reverse mode of a loop with a branch inside: s += (a[i] > 0 ? a[i]^2 : a[i]).
; Nothing is taped. The loop is counted (CountedLoops.cpp): the reverse sweep
; keeps i in a slot, set to n - 1 where it enters the loop and decremented on
; each back edge, and leaves when i is back at 0. Addresses (a + i, da + i)
; are recomputed from i, v is loaded again (f writes no memory), and the
; latch's predecessor is decided by recomputing a[i] > 0, which routes the
; phi's adjoint to v2 or v.
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
; CHECK-NOT:     __ad_tape_push
; CHECK:         %i.last = add i64 [[N]], -1
; CHECK-NOT:     __ad_tape_push
; CHECK-LABEL: exit:

; CHECK-LABEL: rev.loop:
; CHECK-NEXT:    %i.rev = load i64, ptr %i.rev.slot
; CHECK-NEXT:    %p.shadow.re = getelementptr inbounds double, ptr [[DA]], i64 %i.rev
; CHECK:         %first.iteration = icmp eq i64 %i.rev, %loop.start
; CHECK-NEXT:    br i1 %first.iteration, label %rev.loop.enter.loop, label %rev.loop.back.loop

; CHECK-LABEL: rev.sq:
; CHECK-NEXT:    [[IS:%.*]] = load i64, ptr %i.rev.slot
; CHECK-NEXT:    %p.re = getelementptr inbounds double, ptr [[A]], i64 [[IS]]
; CHECK-NEXT:    %v.re = load double, ptr %p.re
; CHECK-NEXT:    %v2.d = load double, ptr %v2.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v2.adj
; CHECK-NEXT:    fmul double %v.re, %v2.d

; CHECK-LABEL: rev.latch:
; CHECK-NEXT:    [[IL:%.*]] = load i64, ptr %i.rev.slot
; CHECK-NEXT:    [[PL:%.*]] = getelementptr inbounds double, ptr [[A]], i64 [[IL]]
; CHECK-NEXT:    [[VL:%.*]] = load double, ptr [[PL]]
; CHECK-NEXT:    %pos.re = fcmp ogt double [[VL]], 0.000000e+00
; CHECK:         br i1 %pos.re, label %rev.edge.sq.latch, label %rev.edge.loop.latch

; Entering the reverse loop from its exit: i = n - 1, and i started at 0.
; CHECK-LABEL: rev.exit:
; CHECK-NEXT:    store i64 %i.last, ptr %i.rev.slot
; CHECK-NEXT:    store i64 0, ptr %loop.rev.start
; CHECK-NEXT:    br label %rev.latch

; CHECK-NOT:     __ad_tape_pop
; CHECK-LABEL: rev.loop.back.loop:
; CHECK-NEXT:    [[PREV:%.*]] = sub i64 %i.rev, 1
; CHECK-NEXT:    store i64 [[PREV]], ptr %i.rev.slot
; CHECK:         br label %rev.latch
; CHECK-LABEL: rev.edge.sq.latch:
; CHECK-NEXT:    [[E2:%.*]] = load double, ptr %v2.adj
; CHECK-NEXT:    [[E3:%.*]] = fadd reassoc double [[E2]], %t.d
; CHECK-NEXT:    store double [[E3]], ptr %v2.adj
; CHECK-NEXT:    br label %rev.sq
; CHECK-LABEL: rev.edge.loop.latch:
; CHECK-NEXT:    [[E4:%.*]] = load double, ptr %v.adj
; CHECK-NEXT:    [[E5:%.*]] = fadd reassoc double [[E4]], %t.d
; CHECK-NEXT:    store double [[E5]], ptr %v.adj
; CHECK-NEXT:    br label %rev.loop
