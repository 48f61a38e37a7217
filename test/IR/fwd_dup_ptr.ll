; Forward mode with a duplicated pointer: a[i] = sin(a[i]) in place. The shadow
; pointer holds the tangents of the pointee: the GEP is mirrored on the shadow,
; the load of the tangent accompanies the primal load, and the tangent
; cos(v) * dv is stored through the shadow where the primal stores.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(ptr %a, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p
  %s = call double @llvm.sin.f64(double %v)
  store double %s, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare double @llvm.sin.f64(double)

define void @caller(ptr %a, ptr %da, i64 %n) {
entry:
  call void (ptr, ...) @__ad_fwddiff(ptr @f, ptr %a, ptr %da, i64 %n)
  ret void
}

declare void @__ad_fwddiff(ptr, ...)

; Pointer defaults to dup, integer to const; f returns void: nothing returned.
; CHECK-LABEL: define void @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @f.ad.tangent(ptr %a, i64 %n, ptr %da)
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @f.ad.tangent(
; CHECK-SAME:    ptr [[A:%[0-9]+]], i64 [[N:%[0-9]+]], ptr [[DA:%[0-9]+]])
; CHECK-LABEL: loop:
; CHECK-NEXT:    %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr [[A]], i64 %i
; CHECK-NEXT:    [[SP:%.*]] = getelementptr inbounds double, ptr [[DA]], i64 %i
; CHECK-NEXT:    %v = load double, ptr %p
; CHECK-NEXT:    %v.d = load double, ptr [[SP]]
; CHECK-NEXT:    %s = call double @llvm.sin.f64(double %v)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %v)
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[COS]], %v.d
; CHECK-NEXT:    store double %s, ptr %p
; CHECK-NEXT:    store double [[DS]], ptr [[SP]]
; CHECK-NEXT:    %i.next = add i64 %i, 1
; CHECK-NOT:     @__ad_tape
; CHECK:         ret void
