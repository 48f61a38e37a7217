; Record layout: each iteration of this loop records s (a double, for the
; adjoint of s * x[i]) and the flag c (for the select's adjoint; recomputing
; it would need s * x[i] > 1 again). Where misaligned access is fast (x86)
; the record is packed byte by byte: 8 + 1 = 9 bytes an iteration. For a
; target that says nothing about misaligned access (no triple), records stay
; 4-byte aligned: 12 bytes.
; RUN: %opt_ad -passes=ad -mtriple=x86_64-pc-linux-gnu %s -S | FileCheck %s --check-prefix=PACKED
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s --check-prefix=ALIGNED

define double @f(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 1.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %p
  %t = fmul double %s, %xi
  %c = fcmp ogt double %t, 1.0
  %s.next = select i1 %c, double %xi, double %t
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}
declare double @__ad_autodiff(ptr, ...)

; PACKED-LABEL: define internal {{.*}} @f.ad.gradient(
; PACKED:       loop:
; PACKED:         [[REC:%.*]] = call ptr @__ad_tape_push_unchecked(ptr %tape, i64 9)
; PACKED-DAG:     store double %s, ptr {{%.*}}, align 1
; PACKED-DAG:     store i1 %c, ptr {{%.*}}, align 1
; PACKED-LABEL: rev.loop:
; PACKED:         call ptr @__ad_tape_pop(ptr %tape, i64 9)

; ALIGNED-LABEL: define internal {{.*}} @f.ad.gradient(
; ALIGNED:       loop:
; ALIGNED:         [[REC:%.*]] = call ptr @__ad_tape_push_unchecked(ptr %tape, i64 12)
; ALIGNED-DAG:     store double %s, ptr {{%.*}}, align 4
; ALIGNED-DAG:     store i1 %c, ptr {{%.*}}, align 1
; ALIGNED-LABEL: rev.loop:
; ALIGNED:         call ptr @__ad_tape_pop(ptr %tape, i64 12)
