; What a caller tells a split derivative about its pointer arguments
; (DerivativeSignature::KeptArgs, UnwrittenArgs). @loss calls
; @layer(w, x, y) with w its own argument, which nothing in @loss writes,
; and x, y two local arrays; the call writes only y. So:
;  - w is kept until the call's adjoint: its loads are repeated there, not
;    taped;
;  - x is not written by the call, so x[0] and x[1], loaded in every
;    iteration of the loop over o, are recorded once per call, not per
;    iteration;
;  - all but one pointer argument (y) are unwritten, so the augmented
;    forward sweep's pointer parameters are noalias.
; @loss2 overwrites w after the call: w is no longer kept and is taped.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

define void @layer(ptr readonly captures(none) %w, ptr readonly captures(none) %x, ptr writeonly captures(none) %y) #0 {
entry:
  br label %loop
loop:
  %o = phi i64 [ 0, %entry ], [ %o.next, %loop ]
  %row = mul nuw nsw i64 %o, 2
  %pw0 = getelementptr inbounds double, ptr %w, i64 %row
  %w0 = load double, ptr %pw0
  %row1 = add nuw nsw i64 %row, 1
  %pw1 = getelementptr inbounds double, ptr %w, i64 %row1
  %w1 = load double, ptr %pw1
  %x0 = load double, ptr %x
  %px1 = getelementptr inbounds double, ptr %x, i64 1
  %x1 = load double, ptr %px1
  %a = fmul double %w0, %x0
  %b = fmul double %w1, %x1
  %s = fadd double %a, %b
  %py = getelementptr inbounds double, ptr %y, i64 %o
  store double %s, ptr %py
  %o.next = add nuw nsw i64 %o, 1
  %done = icmp eq i64 %o.next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define double @loss(ptr %w, ptr %in) {
  %x = alloca [2 x double]
  %y = alloca [4 x double]
  %in0 = load double, ptr %in
  store double %in0, ptr %x
  %x1p = getelementptr inbounds double, ptr %x, i64 1
  store double %in0, ptr %x1p
  call void @layer(ptr %w, ptr %x, ptr %y)
  %y2p = getelementptr inbounds double, ptr %y, i64 2
  %y2 = load double, ptr %y2p
  ret double %y2
}

define double @loss2(ptr %w, ptr %in) {
  %x = alloca [2 x double]
  %y = alloca [4 x double]
  %in0 = load double, ptr %in
  store double %in0, ptr %x
  %x1p = getelementptr inbounds double, ptr %x, i64 1
  store double %in0, ptr %x1p
  call void @layer(ptr %w, ptr %x, ptr %y)
  %y2p = getelementptr inbounds double, ptr %y, i64 2
  %y2 = load double, ptr %y2p
  store double 0.0, ptr %w
  ret double %y2
}

define void @caller(ptr %w, ptr %dw, ptr %in, ptr %din) {
  %g = call double (ptr, ...) @__ad_autodiff(ptr @loss, ptr %w, ptr %dw, ptr %in, ptr %din)
  %g2 = call double (ptr, ...) @__ad_autodiff(ptr @loss2, ptr %w, ptr %dw, ptr %in, ptr %din)
  ret void
}
declare double @__ad_autodiff(ptr, ...)

; What clang's function-attrs infers for @layer.
attributes #0 = { nounwind memory(argmem: readwrite) }

; From @loss: w kept. The loop records nothing per iteration; x[0] and x[1]
; are recorded once, in the exit block.
; CHECK-LABEL: define internal void @layer.ad.augmented(ptr noalias %0, ptr noalias %1, ptr noalias %2,
; CHECK:       loop:
; CHECK-NOT:     __ad_tape_push
; CHECK:       exit:
; CHECK:         call ptr @__ad_tape_push
; CHECK-DAG:     store double %x0,
; CHECK-DAG:     store double %x1,
; CHECK-NOT:     store double %w0
; CHECK:         ret void
; CHECK-LABEL: define internal {{.*}} @layer.ad.adjoint(
; CHECK:       rev.loop:
; CHECK-DAG:     %w0.re = load double, ptr %pw0.re
; CHECK-DAG:     %w1.re = load double, ptr %pw1.re
; CHECK-DAG:     %x0.inv = load double, ptr %x0.invariant

; From @loss2: w is overwritten after the call, so its loads are taped, per
; iteration.
; CHECK-LABEL: define internal void @layer.ad.augmented.{{[0-9]+}}(
; CHECK:       loop:
; CHECK:         call ptr @__ad_tape_push
; CHECK-DAG:     store double %w0,
; CHECK-DAG:     store double %w1,
