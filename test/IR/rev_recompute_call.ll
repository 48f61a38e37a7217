; Recompute or tape a math call: in a loop, tanh(x[i]) is recomputed in the
; reverse sweep from x[i] (f writes no memory, so x[i] can be loaded again),
; and nothing is taped per iteration: the handwritten backward of an
; elementwise activation does the same. Outside a loop, exp(a) is not
; computed twice: here the entry block dominates the reverse sweep, which
; uses %ea itself.
; (Strong-zero guards off: this test checks the partials; strong_zero.ll
; checks the guards.)
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

define double @f(ptr %x, i64 %n, double %a) {
entry:
  %ea = call double @exp(double %a)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %p
  %t = call double @tanh(double %xi)
  %u = fmul double %t, %xi
  %s.next = fadd double %s, %u
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = fmul double %s.next, %ea
  ret double %r
}
declare double @exp(double) #0
declare double @tanh(double) #0
attributes #0 = { mustprogress nofree nounwind willreturn memory(write, argmem: none, inaccessiblemem: none) }

define void @caller(ptr %x, ptr %dx, i64 %n, double %a) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n, double %a)
  ret void
}
declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @f.ad.gradient(
; CHECK:       loop:
; CHECK-NOT:     __ad_tape_push
; CHECK:       exit:
; CHECK-LABEL: rev.entry:
; CHECK-NOT:     @exp(
; CHECK:         fmul double %ea, %ea.d
; CHECK-LABEL: rev.loop:
; CHECK-NOT:     __ad_tape_pop
; CHECK:         %xi.re = load double, ptr %p.re
; CHECK-NEXT:    %t.re = call double @tanh(double %xi.re)
; tanh' = 1 - tanh^2, from the recomputed value.
; CHECK:         [[SQ:%.*]] = fmul double %t.re, %t.re
; CHECK-NEXT:    fsub double 1.000000e+00, [[SQ]]
; CHECK-NOT:     @exp(
; CHECK-LABEL: rev.exit:
; CHECK-NOT:     @exp(
; CHECK:         ret
