; Reverse mode of memset on duplicated memory: the memset overwrote a[1..3]
; with a constant, so their shadow is reset to zero in the reverse sweep (the
; seed there reaches nothing), before the store of x into a[0] reads and resets
; its shadow into dx.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(ptr %a, double %x) {
entry:
  store double %x, ptr %a
  %p = getelementptr inbounds double, ptr %a, i64 1
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 24, i1 false)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define double @caller(ptr %a, ptr %da, double %x) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %a, ptr %da, double %x)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    ptr [[A:%[0-9]+]], double [[X:%[0-9]+]], ptr [[DA:%[0-9]+]])
; CHECK:         store double [[X]], ptr [[A]]
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr [[A]], i64 1
; CHECK-NEXT:    %p.shadow = getelementptr inbounds double, ptr [[DA]], i64 1
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 24, i1 false)
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %p.shadow, i8 0, i64 24, i1 false)
; CHECK-NEXT:    [[S:%.*]] = load double, ptr [[DA]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[DA]]
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[S]]
; CHECK-NEXT:    store double [[T1]], ptr %x.adj
; CHECK-NEXT:    br label %rev.exit
