; Cache or recompute: in a loop, the reverse sweep needs x, -x, 1 - x,
; a = fma(-x, x, y) and 100 * a. Taping them all costs five stores and five
; loads per iteration; -x, 1 - x and 100 * a are one cheap operation on a
; value at hand, and f writes no memory, so x[i] can be loaded again in the
; reverse sweep (a gradient runs both sweeps in one call: nothing changes
; memory in between). a = fma(-x, x, y) is a math call whose operands are at
; hand, so it is recomputed as well: nothing is taped. The loop is counted,
; so the index i comes from the reverse loop's counter (no tape), and the
; addresses of x[i] in the primal and shadow arrays are recomputed from it.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %i.next = add i64 %i, 1
  %p = getelementptr double, ptr %x, i64 %i
  %q = getelementptr double, ptr %x, i64 %i.next
  %xi = load double, ptr %p
  %y = load double, ptr %q
  %neg = fneg double %xi
  %a = call double @llvm.fmuladd.f64(double %neg, double %xi, double %y)
  %b = fsub double 1.0, %xi
  %a100 = fmul double %a, 100.0
  %t1 = fmul double %a100, %a
  %t2 = fmul double %b, %b
  %t = fadd double %t1, %t2
  %s.next = fadd double %s, %t
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}
declare double @llvm.fmuladd.f64(double, double, double)

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}
declare double @__ad_autodiff(ptr, ...)

; Forward sweep: no record at all.
; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK:       loop:
; CHECK-NOT:     __ad_tape_push
; CHECK:         br i1 %done
; Reverse sweep: everything recomputed from the counter and x.
; CHECK-LABEL: rev.loop:
; CHECK-NOT:     __ad_tape_pop
; CHECK:         %i.rev = load i64, ptr %i.rev.slot
; CHECK-DAG:     %p.re = getelementptr double, ptr %{{[0-9]+}}, i64 %i.rev
; CHECK-DAG:     %xi.re = load double, ptr %p.re
; CHECK-DAG:     %b.re = fsub double 1.000000e+00, %xi.re
; CHECK-DAG:     %neg.re = fneg double %xi.re
; CHECK-DAG:     %i.next.re = add i64 %i.rev, 1
; CHECK-DAG:     %q.re = getelementptr double, ptr %{{[0-9]+}}, i64 %i.next.re
; CHECK-DAG:     %y.re = load double, ptr %q.re
; CHECK-DAG:     %a.re = call double @llvm.fmuladd.f64(double %neg.re, double %xi.re, double %y.re)
; CHECK-DAG:     %a100.re = fmul double %a.re, 1.000000e+02
; CHECK-DAG:     %p.shadow.re = getelementptr double, ptr %{{[0-9]+}}, i64 %i.rev
; CHECK-DAG:     %q.shadow.re = getelementptr double, ptr %{{[0-9]+}}, i64 %i.next.re
; CHECK:         br i1 %first.iteration
