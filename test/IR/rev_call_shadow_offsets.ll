; Reverse mode through a call that reads x[0], x[1], x[2] (an unrolled loop):
; the adjoint of g gets only the tape, so the shadow addresses of x[1] and
; x[2] cannot be taken from its arguments; they are recomputed from the one
; taped shadow of x instead of being taped one pointer each (the tape record
; holds the three loaded values and that one pointer: 32 bytes; a * b is
; recomputed from a and b).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare double @__ad_autodiff(ptr, ...)

define double @g(ptr %x) {
entry:
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %p2 = getelementptr inbounds double, ptr %x, i64 2
  %a = load double, ptr %x
  %b = load double, ptr %p1
  %c = load double, ptr %p2
  %ab = fmul double %a, %b
  %r = fmul double %ab, %c
  ret double %r
}

define double @f(ptr %x) {
entry:
  %r = call double @g(ptr %x)
  ret double %r
}

define double @caller(ptr %x, ptr %dx) {
entry:
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx)
  ret double %r
}

; CHECK-LABEL: define internal double @g.ad.augmented(ptr noalias %0, ptr %1, ptr %2)
; CHECK: call ptr @__ad_tape_push(ptr %2, i64 32)
; CHECK: store ptr %1,
; CHECK-NOT: store ptr
; CHECK: ret double

; CHECK-LABEL: define internal void @g.ad.adjoint(double %0, ptr %1)
; CHECK: %record = call ptr @__ad_tape_pop(ptr %1, i64 32)
; CHECK: %[[XS:.*]] = load ptr, ptr
; CHECK-DAG: %[[P2:p2.shadow.re]] = getelementptr inbounds double, ptr %[[XS]], i64 2
; CHECK-DAG: %[[P1:p1.shadow.re]] = getelementptr inbounds double, ptr %[[XS]], i64 1
; CHECK-DAG: store double %{{.*}}, ptr %[[P2]]
; CHECK-DAG: store double %{{.*}}, ptr %[[P1]]
; CHECK-DAG: store double %{{.*}}, ptr %[[XS]]
; CHECK: ret void
