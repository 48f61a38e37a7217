; A load inside a loop that gives the same value in every iteration: x[o]
; is loaded in the inner loop (as -O0 code or a macro body would), from an
; address computed outside it, and nothing in the inner loop writes x. x
; is overwritten after the loops, so the load cannot be repeated in the
; reverse sweep; instead of one record per inner iteration, the value is
; recorded once per outer iteration, in the inner loop's exit block (the
; last iteration loaded it), and read into a slot where the reverse sweep
; enters the inner loop.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

define double @f(ptr noalias %x, ptr noalias %y, i64 %n, i64 %m) {
entry:
  br label %outer

outer:
  %o = phi i64 [ 0, %entry ], [ %o.next, %outer.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.inner, %outer.latch ]
  %px = getelementptr inbounds double, ptr %x, i64 %o
  br label %inner

inner:
  %i = phi i64 [ 0, %outer ], [ %i.next, %inner ]
  %t = phi double [ %s, %outer ], [ %t.next, %inner ]
  %xo = load double, ptr %px
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %yi = load double, ptr %py
  %p = fmul double %xo, %yi
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
  store double 0.0, ptr %x
  ret double %s.inner
}

define void @caller(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n, i64 %m) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n, i64 %m)
  ret void
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @f.ad.gradient(
; The inner loop records nothing; x[o] is recorded by its exit block.
; CHECK-LABEL: inner:
; CHECK-NOT:     __ad_tape_push
; CHECK-LABEL: outer.latch:
; CHECK:         [[REC:%.*]] = call ptr @__ad_tape_push(ptr %tape, i64 {{[0-9]+}})
; CHECK:         store double %xo, ptr

; The reverse inner loop reads x[o] from its slot, and y[i] again.
; CHECK-LABEL: rev.inner:
; CHECK-NOT:     __ad_tape_pop
; CHECK-DAG:     %xo.inv = load double, ptr %xo.invariant
; CHECK-DAG:     %yi.re = load double, ptr %py.re
; CHECK:         fmul double %xo.inv, %p.d
