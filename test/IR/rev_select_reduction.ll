; A running maximum (primal/SelectReductions.cpp) is read back after its
; loop, so the loop records nothing per iteration and the adjoint is added
; once, to the shadow of the chosen element. With `>` (maxof) the chosen
; element is the first one equal to the maximum: a search after the loop
; (__ad_first_equal) finds its index, which the gradient keeps for its
; reverse sweep. With `>=` (lastmaxof) the last equal one is chosen: the
; canonical primal keeps its address beside the select chain. Forward mode
; loads the tangent from the same address.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @maxof(ptr noalias %x, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %m = phi double [ 0xFFF0000000000000, %entry ], [ %m.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %c = fcmp ogt double %v, %m
  %m.next = select i1 %c, double %v, double %m
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = fmul double %m.next, 3.0
  ret double %r
}

define double @lastmaxof(ptr noalias %x, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %m = phi double [ 0xFFF0000000000000, %entry ], [ %m.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %c = fcmp oge double %v, %m
  %m.next = select i1 %c, double %v, double %m
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = fmul double %m.next, 3.0
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @maxof, ptr %x, ptr %dx, i64 %n)
  %h = call double (ptr, ...) @__ad_autodiff(ptr @lastmaxof, ptr %x, ptr %dx, i64 %n)
  ret void
}

define double @tangent(ptr %x, ptr %tx, i64 %n) {
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @maxof, ptr %x, ptr %tx, i64 %n)
  %u = call double (ptr, ...) @__ad_fwddiff(ptr @lastmaxof, ptr %x, ptr %tx, i64 %n)
  %s = fadd double %t, %u
  ret double %s
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @maxof.ad.gradient(
; CHECK:       loop:
; CHECK-NOT:     select i1 %c, ptr
; CHECK:         br i1 %done, label %m.readback, label %loop
; CHECK:       m.readback:
; CHECK-NEXT:    [[MOVED:%.*]] = fcmp ogt double %m.next, 0xFFF0000000000000
; CHECK-NEXT:    br i1 [[MOVED]]
; CHECK:         %m.next.index = call i64 @__ad_first_equal.double(ptr %0, i64 8, double %m.next)
; CHECK:         %m.next.at = getelementptr i8, ptr %0, i64 [[OFF:%.*]]
; CHECK:         %m.next.readback = load double, ptr %m.next.at
; CHECK:         store i64 %m.next.index, ptr %m.next.index.record
; CHECK:         %m.next.index.saved = load i64, ptr %m.next.index.record
; CHECK-NEXT:    [[ROFF:%.*]] = mul i64 %m.next.index.saved, 8
; CHECK-NEXT:    [[AT:%.*]] = getelementptr i8, ptr %2, i64 [[ROFF]]
; CHECK-NEXT:    %m.next.readback.d = load double, ptr %m.next.readback.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %m.next.readback.adj
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr [[AT]]
; CHECK-NEXT:    [[NEW:%.*]] = fadd reassoc double [[OLD]], %m.next.readback.d
; CHECK-NEXT:    store double [[NEW]], ptr [[AT]]

; CHECK-LABEL: define internal void @lastmaxof.ad.gradient(
; CHECK:       loop:
; CHECK-NOT:     __ad_tape_push
; CHECK:         br i1 %done, label %m.readback, label %loop
; CHECK:       m.readback:
; CHECK-NEXT:    [[FOUND:%.*]] = icmp ne ptr %m.next.from, null
; CHECK-NEXT:    br i1 [[FOUND]]
; CHECK:         %m.next.readback = load double, ptr %m.next.from
; One record per loop: the chosen element's shadow address.
; CHECK-NEXT:    call ptr @__ad_tape_push(ptr %tape, i64 8)
; The reverse of the loop only counts down: no record, no adjoint.
; CHECK-LABEL: rev.loop:
; CHECK-NEXT:    %i.rev = load i64
; CHECK-NEXT:    %loop.start = load i64
; CHECK-NEXT:    %first.iteration = icmp eq i64
; CHECK-NEXT:    br i1 %first.iteration
; The read-back's adjoint, added once to the chosen element's shadow.
; CHECK:         %m.next.from.shadow.saved = load ptr
; CHECK-NEXT:    %m.next.readback.d = load double, ptr %m.next.readback.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %m.next.readback.adj
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr %m.next.from.shadow.saved
; CHECK-NEXT:    [[NEW:%.*]] = fadd reassoc double [[OLD]], %m.next.readback.d
; CHECK-NEXT:    store double [[NEW]], ptr %m.next.from.shadow.saved

; CHECK-LABEL: define internal { double, double } @maxof.ad.tangent(
; CHECK:         %m.next.index = call i64 @__ad_first_equal.double(ptr %0, i64 8, double %m.next)
; CHECK:         %m.next.readback = load double, ptr %m.next.at
; CHECK-NEXT:    %m.next.readback.d = load double, ptr
; CHECK:         %m.next.final.d = phi double [ %m.next.readback.d, {{%.*}} ], [ 0.000000e+00, %m.readback ]

; CHECK-LABEL: define internal { double, double } @lastmaxof.ad.tangent(
; CHECK:       loop:
; CHECK:         %m.from = phi ptr [ %m.next.from, %loop ], [ null, %entry ]
; CHECK:         %m.next.from = select i1 %c, ptr %p, ptr %m.from
; CHECK-NEXT:    [[TSEL:%.*]] = select i1 %c, ptr {{%.*}}, ptr %m.from.d
; CHECK:         br i1 %done, label %m.readback, label %loop
; CHECK:       m.readback:
; CHECK-NEXT:    [[FOUND:%.*]] = icmp ne ptr %m.next.from, null
; CHECK-NEXT:    br i1 [[FOUND]]
; CHECK:         %m.next.readback = load double, ptr %m.next.from
; CHECK-NEXT:    %m.next.readback.d = load double, ptr [[TSEL]]
; CHECK:         %m.next.final.d = phi double [ %m.next.readback.d, {{%.*}} ], [ 0.000000e+00, %m.readback ]
