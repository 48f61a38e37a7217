; Reverse mode of a nested loop whose inner loop uses a value computed in the
; outer one: s += e * y[i] with e = exp(x[o] + s). e is not recomputable (s
; is a running sum), but it is the same in every inner iteration, so it is recorded
; once per outer iteration (in the inner loop's exit block) and the reverse
; sweep copies it into a slot where it enters the inner loop; the inner
; loop records nothing.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %x, ptr %y, i64 %n, i64 %m) {
entry:
  br label %outer

outer:
  %o = phi i64 [ 0, %entry ], [ %o.next, %outer.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.inner, %outer.latch ]
  %px = getelementptr inbounds double, ptr %x, i64 %o
  %xo = load double, ptr %px
  %xs = fadd double %xo, %s
  %e = call double @llvm.exp.f64(double %xs)
  br label %inner

inner:
  %i = phi i64 [ 0, %outer ], [ %i.next, %inner ]
  %t = phi double [ %s, %outer ], [ %t.next, %inner ]
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %yi = load double, ptr %py
  %p = fmul double %e, %yi
  %t.next = fadd double %t, %p
  %i.next = add nuw nsw i64 %i, 1
  %idone = icmp eq i64 %i.next, %m
  br i1 %idone, label %outer.latch, label %inner

outer.latch:
  %s.inner = phi double [ %t.next, %inner ]
  %o.next = add nuw nsw i64 %o, 1
  %odone = icmp eq i64 %o.next, %n
  br i1 %odone, label %exit, label %outer

exit:
  ret double %s.inner
}

declare double @llvm.exp.f64(double)

define void @caller(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n, i64 %m) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n, i64 %m)
  ret void
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @f.ad.gradient(
; The inner loop pushes nothing; e is recorded by blocks of the outer loop.
; CHECK-LABEL: inner:
; CHECK-NOT:     __ad_tape_push
; CHECK-LABEL: outer.latch:
; CHECK:         [[REC:%.*]] = call ptr @__ad_tape_push(ptr %tape, i64 8)
; CHECK-NEXT:    [[F:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 0
; CHECK-NEXT:    store double %e, ptr [[F]]

; The reverse inner loop reads e from its slot, every iteration, no pop.
; CHECK-LABEL: rev.inner:
; CHECK-NOT:     __ad_tape_pop
; CHECK:         %e.inv = load double, ptr %e.invariant
; CHECK:         fmul double %e.inv, %p.d
; CHECK:         br i1 %first.iteration{{[0-9]*}}, label %rev.loop.enter.inner, label %rev.loop.back.inner

; Entering the reverse inner loop (from the outer latch): the counter, its
; start, and e from the latch's record.
; CHECK-LABEL: rev.outer.latch:
; CHECK-NEXT:    [[POP:%.*]] = call ptr @__ad_tape_pop(ptr %tape, i64 8)
; CHECK-NEXT:    [[G:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 0
; CHECK-NEXT:    [[ES:%.*]] = load double, ptr [[G]]
; CHECK-NEXT:    store i64 %i.last, ptr %i.rev.slot
; CHECK-NEXT:    store i64 0, ptr %inner.rev.start
; CHECK-NEXT:    store double [[ES]], ptr %e.invariant
; CHECK-NEXT:    br label %rev.inner
