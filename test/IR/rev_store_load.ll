; Reverse mode through memory: out[1] = a[0] * a[0] with both pointers
; duplicated (the default for pointers). The GEP gets a shadow GEP on the
; shadow pointer; the store's adjoint reads the shadow and zeroes it; the
; load's adjoint accumulates into the shadow (load, fadd, store).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(ptr %a, ptr %out) {
entry:
  %x = load double, ptr %a
  %y = fmul double %x, %x
  %p = getelementptr inbounds double, ptr %out, i64 1
  store double %y, ptr %p
  ret void
}

define void @caller(ptr %a, ptr %da, ptr %out, ptr %dout) {
entry:
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %a, ptr %da, ptr %out, ptr %dout)
  ret void
}

declare void @__ad_autodiff(ptr, ...)

; Primals first, then shadows; no return seed (f returns void).
; CHECK-LABEL: define void @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @f.ad.gradient(ptr %a, ptr %out, ptr %da, ptr %dout)
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-SAME:    ptr [[A:%[0-9]+]], ptr [[OUT:%[0-9]+]], ptr [[DA:%[0-9]+]], ptr [[DOUT:%[0-9]+]])
; CHECK:         %x = load double, ptr [[A]]
; CHECK-NEXT:    %y = fmul double %x, %x
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr [[OUT]], i64 1
; CHECK-NEXT:    %p.shadow = getelementptr inbounds double, ptr [[DOUT]], i64 1
; CHECK-NEXT:    store double %y, ptr %p
; CHECK-LABEL: rev.entry:
; store: dy += *p.shadow; *p.shadow = 0
; CHECK-NEXT:    [[S:%.*]] = load double, ptr %p.shadow
; CHECK-NEXT:    store double 0.000000e+00, ptr %p.shadow
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[S]]
; CHECK-NEXT:    store double [[T1]], ptr %y.adj
; y = x * x: dx gets x * dy twice.
; CHECK-NEXT:    %y.d = load double, ptr %y.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %y.adj
; CHECK-NEXT:    [[D1:%.*]] = fmul double %x, %y.d
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[D1]]
; CHECK-NEXT:    store double [[T3]], ptr %x.adj
; CHECK-NEXT:    [[D2:%.*]] = fmul double %x, %y.d
; CHECK-NEXT:    [[T4:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T5:%.*]] = fadd reassoc double [[T4]], [[D2]]
; CHECK-NEXT:    store double [[T5]], ptr %x.adj
; load: *da += dx
; CHECK-NEXT:    %x.d = load double, ptr %x.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %x.adj
; CHECK-NEXT:    [[SA:%.*]] = load double, ptr [[DA]]
; CHECK-NEXT:    [[SN:%.*]] = fadd reassoc double [[SA]], %x.d
; CHECK-NEXT:    store double [[SN]], ptr [[DA]]
; CHECK-NEXT:    br label %rev.exit
