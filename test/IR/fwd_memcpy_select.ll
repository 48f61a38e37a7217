; Forward mode: memcpy between duplicated buffers copies the tangents too
; (the same memcpy on the shadows), the load of dst[1] loads its tangent from
; the shadow, and a select picks the tangent of the operand it picks, with the
; same condition.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %dst, ptr %src, double %x) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  %p = getelementptr inbounds double, ptr %dst, i64 1
  %v = load double, ptr %p
  %c = fcmp olt double %v, %x
  %s = select i1 %c, double %v, double %x
  ret double %s
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @caller(ptr %dst, ptr %ddst, ptr %src, ptr %dsrc, double %x, double %dx) {
entry:
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, ptr %dst, ptr %ddst, ptr %src, ptr %dsrc, double %x, double %dx)
  ret double %t
}

declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define double @caller(
; CHECK:         call { double, double } @f.ad.tangent(ptr %dst, ptr %src, double %x, ptr %ddst, ptr %dsrc, double %dx)

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    ptr [[DST:%[0-9]+]], ptr [[SRC:%[0-9]+]], double [[X:%[0-9]+]], ptr [[DDST:%[0-9]+]], ptr [[DSRC:%[0-9]+]], double [[DX:%[0-9]+]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr [[DST]], ptr [[SRC]], i64 16, i1 false)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr [[DDST]], ptr [[DSRC]], i64 16, i1 false)
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr [[DST]], i64 1
; CHECK-NEXT:    [[SP:%.*]] = getelementptr inbounds double, ptr [[DDST]], i64 1
; CHECK-NEXT:    %v = load double, ptr %p
; CHECK-NEXT:    %v.d = load double, ptr [[SP]]
; CHECK-NEXT:    %c = fcmp olt double %v, [[X]]
; CHECK-NEXT:    %s = select i1 %c, double %v, double [[X]]
; CHECK-NEXT:    [[DS:%.*]] = select i1 %c, double %v.d, double [[DX]]
; CHECK-NEXT:    [[R0:%.*]] = insertvalue { double, double } poison, double %s, 0
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DS]], 1
; CHECK-NEXT:    ret { double, double } [[R1]]
