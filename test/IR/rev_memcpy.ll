; Reverse mode of memcpy between duplicated buffers: after the adjoint of the
; later load has gone into dst's shadow, the memcpy's adjoint moves dst's
; shadow into src's (+=, then zero) with __ad_memcpy_adjoint.double, 32 bytes =
; 4 doubles of stride 8. The runtime helper is emitted into the module.
; dst is passed as __ad_dupnoneed (the marker is a load from its global).
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_dupnoneed = external global i32

define double @f(ptr %dst, ptr %src) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 32, i1 false)
  %p = getelementptr inbounds double, ptr %dst, i64 2
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @caller(ptr %dst, ptr %ddst, ptr %src, ptr %dsrc) {
entry:
  %dn = load i32, ptr @__ad_dupnoneed
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, i32 %dn, ptr %dst, ptr %ddst, ptr %src, ptr %dsrc)
  ret void
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-NOT:   @__ad_dupnoneed
; CHECK-LABEL: define void @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @f.ad.gradient(ptr %dst, ptr %src, ptr %ddst, ptr %dsrc, double 1.000000e+00)
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-SAME:    ptr [[DST:%[0-9]+]], ptr [[SRC:%[0-9]+]], ptr [[DDST:%[0-9]+]], ptr [[DSRC:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr [[DST]], ptr [[SRC]], i64 32, i1 false)
; CHECK-NEXT:    %p = getelementptr inbounds double, ptr [[DST]], i64 2
; CHECK-NEXT:    %p.shadow = getelementptr inbounds double, ptr [[DDST]], i64 2
; CHECK-LABEL: rev.entry:
; CHECK:         %v.d = load double, ptr %v.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v.adj
; CHECK-NEXT:    [[S0:%.*]] = load double, ptr %p.shadow
; CHECK-NEXT:    [[S1:%.*]] = fadd reassoc double [[S0]], %v.d
; CHECK-NEXT:    store double [[S1]], ptr %p.shadow
; CHECK-NEXT:    [[FROM:%.*]] = getelementptr i8, ptr [[DSRC]], i64 0
; CHECK-NEXT:    [[TO:%.*]] = getelementptr i8, ptr [[DDST]], i64 0
; CHECK-NEXT:    call void @__ad_memcpy_adjoint.double(ptr [[FROM]], ptr [[TO]], i64 4, i64 8)
; CHECK-NEXT:    br label %rev.exit

; The helper: for each element, src[i] += dst[i]; dst[i] = 0.
; CHECK-LABEL: define linkonce_odr hidden void @__ad_memcpy_adjoint.double(
; CHECK-SAME:    ptr [[HS:%[0-9]+]], ptr [[HD:%[0-9]+]], i64 [[HN:%[0-9]+]], i64 [[HSTRIDE:%[0-9]+]])
; CHECK-LABEL: up:
; CHECK:         [[OFF:%.*]] = mul i64 %{{.*}}, [[HSTRIDE]]
; CHECK-NEXT:    [[PD:%.*]] = getelementptr i8, ptr [[HD]], i64 [[OFF]]
; CHECK-NEXT:    [[PS:%.*]] = getelementptr i8, ptr [[HS]], i64 [[OFF]]
; CHECK-NEXT:    [[VD:%.*]] = load double, ptr [[PD]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[PD]]
; CHECK-NEXT:    [[VS:%.*]] = load double, ptr [[PS]]
; CHECK-NEXT:    [[SUM:%.*]] = fadd double [[VS]], [[VD]]
; CHECK-NEXT:    store double [[SUM]], ptr [[PS]]
