; Both modes of llvm.masked.gather and llvm.masked.store (what the vectorizer
; emits with AVX2/AVX-512) on y[k] = x[idx[k]]^2 where m[k]. Forward mode does
; the same masked accesses on the shadows. Reverse mode takes the stored lanes'
; adjoints from dy with a masked load and zeroes them with a masked store, then
; adds the gather's adjoint to dx lane by lane (lanes may alias), each lane a
; one-lane masked access so a masked-off lane touches no memory.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f(ptr %x, ptr %y, <2 x i64> %idx, <2 x i1> %m) {
entry:
  %ps = getelementptr double, ptr %x, <2 x i64> %idx
  %g = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> align 8 %ps, <2 x i1> %m, <2 x double> zeroinitializer)
  %sq = fmul <2 x double> %g, %g
  call void @llvm.masked.store.v2f64.p0(<2 x double> %sq, ptr align 8 %y, <2 x i1> %m)
  ret void
}
declare <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr>, <2 x i1>, <2 x double>)
declare void @llvm.masked.store.v2f64.p0(<2 x double>, ptr, <2 x i1>)

define void @rev(ptr %x, ptr %dx, ptr %y, ptr %dy, <2 x i64> %idx, <2 x i1> %m) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, <2 x i64> %idx, <2 x i1> %m)
  ret void
}
define void @fwd(ptr %x, ptr %dx, ptr %y, ptr %dy, <2 x i64> %idx, <2 x i1> %m) {
  call void (ptr, ...) @__ad_fwddiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, <2 x i64> %idx, <2 x i1> %m)
  ret void
}
declare void @__ad_autodiff(ptr, ...)
declare void @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @f.ad.gradient(
; CHECK-SAME:    ptr [[X:%[0-9]+]], ptr [[Y:%[0-9]+]], <2 x i64> [[IDX:%[0-9]+]], <2 x i1> [[M:%[0-9]+]], ptr [[DX:%[0-9]+]], ptr [[DY:%[0-9]+]])
; CHECK:         %ps.shadow = getelementptr double, ptr [[DX]], <2 x i64> [[IDX]]
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    [[D:%.*]] = call <2 x double> @llvm.masked.load.v2f64.p0(ptr align 8 [[DY]], <2 x i1> [[M]], <2 x double> zeroinitializer)
; CHECK-NEXT:    call void @llvm.masked.store.v2f64.p0(<2 x double> zeroinitializer, ptr align 8 [[DY]], <2 x i1> [[M]])
; CHECK:         %g.d = load <2 x double>, ptr %g.adj
; CHECK:         [[P0:%.*]] = extractelement <2 x ptr> %ps.shadow, i64 0
; CHECK-NEXT:    [[D0:%.*]] = extractelement <2 x double> %g.d, i64 0
; CHECK-NEXT:    [[M0:%.*]] = extractelement <2 x i1> [[M]], i64 0
; CHECK-NEXT:    [[M0V:%.*]] = insertelement <1 x i1> poison, i1 [[M0]], i64 0
; CHECK-NEXT:    [[OLD0:%.*]] = call <1 x double> @llvm.masked.load.v1f64.p0(ptr align 8 [[P0]], <1 x i1> [[M0V]], <1 x double> zeroinitializer)
; CHECK-NEXT:    [[D0V:%.*]] = insertelement <1 x double> poison, double [[D0]], i64 0
; CHECK-NEXT:    [[NEW0:%.*]] = fadd <1 x double> [[OLD0]], [[D0V]]
; CHECK-NEXT:    call void @llvm.masked.store.v1f64.p0(<1 x double> [[NEW0]], ptr align 8 [[P0]], <1 x i1> [[M0V]])
; CHECK:         extractelement <2 x ptr> %ps.shadow, i64 1
; CHECK:         call void @llvm.masked.store.v1f64.p0(

; CHECK-LABEL: define internal void @f.ad.tangent(
; CHECK-SAME:    ptr [[X:%[0-9]+]], ptr [[Y:%[0-9]+]], <2 x i64> [[IDX:%[0-9]+]], <2 x i1> [[M:%[0-9]+]], ptr [[DX:%[0-9]+]], ptr [[DY:%[0-9]+]])
; CHECK:         [[SP:%.*]] = getelementptr double, ptr [[DX]], <2 x i64> [[IDX]]
; CHECK:         [[DG:%.*]] = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> align 8 [[SP]], <2 x i1> [[M]], <2 x double> zeroinitializer)
; CHECK:         call void @llvm.masked.store.v2f64.p0(<2 x double> %sq, ptr align 8 [[Y]], <2 x i1> [[M]])
; CHECK-NEXT:    call void @llvm.masked.store.v2f64.p0(<2 x double> %{{.*}}, ptr align 8 [[DY]], <2 x i1> [[M]])
