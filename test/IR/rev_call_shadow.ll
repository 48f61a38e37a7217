; Reverse mode through a call that takes a duplicated pointer: the augmented
; forward sweep of scale receives the primal and shadow pointers and the tape,
; and records what its adjoint needs (the shadow pointer, k, and the loaded x);
; the adjoint receives only the tape. In scale's adjoint the store reads and
; zeroes the shadow, then k * dy flows back into the shadow through the load,
; and x * dy is returned as k's adjoint.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @scale(ptr %v, double %k) {
entry:
  %x = load double, ptr %v
  %y = fmul double %x, %k
  store double %y, ptr %v
  ret void
}

define double @f(ptr %a, double %k) {
entry:
  call void @scale(ptr %a, double %k)
  %r = load double, ptr %a
  ret double %r
}

define double @caller(ptr %a, ptr %da, double %k) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %a, ptr %da, double %k)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    ptr [[A:%[0-9]+]], double [[K:%[0-9]+]], ptr [[DA:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         call void @scale.ad.augmented(ptr [[A]], double [[K]], ptr [[DA]], ptr %tape)
; CHECK-NEXT:    %r = load double, ptr [[A]]
; CHECK-LABEL: rev.entry:
; CHECK:         %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[S0:%.*]] = load double, ptr [[DA]]
; CHECK-NEXT:    [[S1:%.*]] = fadd reassoc double [[S0]], %r.d
; CHECK-NEXT:    store double [[S1]], ptr [[DA]]
; CHECK-NEXT:    [[RES:%.*]] = call { double } @scale.ad.adjoint(ptr %tape)
; CHECK-NEXT:    [[DK:%.*]] = extractvalue { double } [[RES]], 0
; CHECK-NEXT:    [[K0:%.*]] = load double, ptr %k.adj
; CHECK-NEXT:    [[K1:%.*]] = fadd reassoc double [[K0]], [[DK]]
; CHECK-NEXT:    store double [[K1]], ptr %k.adj

; CHECK-LABEL: define internal void @scale.ad.augmented(
; CHECK-SAME:    ptr noalias [[V:%[0-9]+]], double [[AK:%[0-9]+]], ptr [[DV:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %x = load double, ptr [[V]]
; CHECK-NEXT:    %y = fmul double %x, [[AK]]
; CHECK-NEXT:    store double %y, ptr [[V]]
; CHECK-NEXT:    [[REC:%.*]] = call ptr @__ad_tape_push(ptr [[TAPE]], i64 24)
; CHECK-NEXT:    [[R0:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 0
; CHECK-NEXT:    store ptr [[DV]], ptr [[R0]]
; CHECK-NEXT:    [[R8:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 8
; CHECK-NEXT:    store double [[AK]], ptr [[R8]]
; CHECK-NEXT:    [[R16:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 16
; CHECK-NEXT:    store double %x, ptr [[R16]]
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal { double } @scale.ad.adjoint(
; CHECK-SAME:    ptr [[T2:%[0-9]+]])
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    [[POP:%.*]] = call ptr @__ad_tape_pop(ptr [[T2]], i64 24)
; CHECK-NEXT:    [[P0:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 0
; CHECK-NEXT:    [[SH:%.*]] = load ptr, ptr [[P0]]
; CHECK-NEXT:    [[P8:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 8
; CHECK-NEXT:    [[KS:%.*]] = load double, ptr [[P8]]
; CHECK-NEXT:    [[P16:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 16
; CHECK-NEXT:    %x.saved = load double, ptr [[P16]]
; store y: dy += *shadow; *shadow = 0
; CHECK-NEXT:    [[DY0:%.*]] = load double, ptr [[SH]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[SH]]
; CHECK-NEXT:    [[Y0:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[Y1:%.*]] = fadd reassoc double [[Y0]], [[DY0]]
; CHECK-NEXT:    store double [[Y1]], ptr %y.adj
; y = x * k
; CHECK-NEXT:    %y.d = load double, ptr %y.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %y.adj
; CHECK-NEXT:    [[DX:%.*]] = fmul double [[KS]], %y.d
; CHECK-NEXT:    [[X0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[X1:%.*]] = fadd reassoc double [[X0]], [[DX]]
; CHECK-NEXT:    store double [[X1]], ptr %x.adj
; CHECK-NEXT:    [[DKK:%.*]] = fmul double %x.saved, %y.d
; CHECK-NEXT:    [[KA0:%.*]] = load double, ptr %k.adj
; CHECK-NEXT:    [[KA1:%.*]] = fadd reassoc double [[KA0]], [[DKK]]
; CHECK-NEXT:    store double [[KA1]], ptr %k.adj
; load x: *shadow += dx
; CHECK-NEXT:    %x.d = load double, ptr %x.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %x.adj
; CHECK-NEXT:    [[L0:%.*]] = load double, ptr [[SH]]
; CHECK-NEXT:    [[L1:%.*]] = fadd reassoc double [[L0]], %x.d
; CHECK-NEXT:    store double [[L1]], ptr [[SH]]
; CHECK-NEXT:    br label %rev.exit
; CHECK-LABEL: rev.exit:
; CHECK:         %k.d = load double, ptr %k.adj
; CHECK:         ret { double }
