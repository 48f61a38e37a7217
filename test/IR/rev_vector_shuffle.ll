; Reverse mode through insertelement, shufflevector and
; llvm.vector.reduce.fadd. With v = <x, y>, sw = <y, y>:
;   r = reduce.fadd(0.0, v * sw) = x*y + y*y,  dr/dx = y, dr/dy = x + 2y.
; reduce.fadd: every lane gets dr (a splat); the constant start gets nothing.
; shufflevector <1, 1>: both result lanes' adjoints are summed into lane 1.
; insertelement: the inserted scalar gets that lane's adjoint, the vector
; operand gets the rest with that lane zeroed.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %v0 = insertelement <2 x double> poison, double %x, i32 0
  %v = insertelement <2 x double> %v0, double %y, i32 1
  %sw = shufflevector <2 x double> %v, <2 x double> poison, <2 x i32> <i32 1, i32 1>
  %p = fmul <2 x double> %v, %sw
  %r = call double @llvm.vector.reduce.fadd.v2f64(double 0.0, <2 x double> %p)
  ret double %r
}

declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define { double, double } @caller(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-LABEL: rev.entry:
; reduce: dp += splat(dr)
; CHECK-NEXT:    %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[INS:%.*]] = insertelement <2 x double> poison, double %r.d, i64 0
; CHECK-NEXT:    [[SPLAT:%.*]] = shufflevector <2 x double> [[INS]], <2 x double> poison, <2 x i32> zeroinitializer
; CHECK-NEXT:    [[P0:%.*]] = load <2 x double>, ptr %p.adj
; CHECK-NEXT:    [[P1:%.*]] = fadd reassoc <2 x double> [[P0]], [[SPLAT]]
; CHECK-NEXT:    store <2 x double> [[P1]], ptr %p.adj
; p = v * sw
; CHECK-NEXT:    %p.d = load <2 x double>, ptr %p.adj
; CHECK-NEXT:    store <2 x double> {{.*}}, ptr %p.adj
; CHECK-NEXT:    [[DV:%.*]] = fmul <2 x double> %sw, %p.d
; CHECK:         store <2 x double> %{{.*}}, ptr %v.adj
; CHECK-NEXT:    [[DSW:%.*]] = fmul <2 x double> %v, %p.d
; CHECK:         store <2 x double> %{{.*}}, ptr %sw.adj
; sw = shuffle v <1, 1>: dv[1] += dsw[0] + dsw[1]
; CHECK-NEXT:    %sw.d = load <2 x double>, ptr %sw.adj
; CHECK-NEXT:    store <2 x double> {{.*}}, ptr %sw.adj
; CHECK-NEXT:    [[L0:%.*]] = extractelement <2 x double> %sw.d, i64 0
; CHECK-NEXT:    [[S0:%.*]] = fadd double {{-?}}0.000000e+00, [[L0]]
; CHECK-NEXT:    [[W0:%.*]] = insertelement <2 x double> {{.*}}, double [[S0]], i64 1
; CHECK-NEXT:    [[L1:%.*]] = extractelement <2 x double> %sw.d, i64 1
; CHECK-NEXT:    [[O1:%.*]] = extractelement <2 x double> [[W0]], i64 1
; CHECK-NEXT:    [[S1:%.*]] = fadd double [[O1]], [[L1]]
; CHECK-NEXT:    [[W1:%.*]] = insertelement <2 x double> [[W0]], double [[S1]], i64 1
; CHECK-NEXT:    [[V0:%.*]] = load <2 x double>, ptr %v.adj
; CHECK-NEXT:    [[V1:%.*]] = fadd reassoc <2 x double> [[V0]], [[W1]]
; CHECK-NEXT:    store <2 x double> [[V1]], ptr %v.adj
; v = insertelement v0, y, 1: dy += dv[1]; dv0 += dv with lane 1 zeroed
; CHECK-NEXT:    %v.d = load <2 x double>, ptr %v.adj
; CHECK-NEXT:    store <2 x double> {{.*}}, ptr %v.adj
; CHECK-NEXT:    [[DY:%.*]] = extractelement <2 x double> %v.d, i32 1
; CHECK-NEXT:    [[Y0:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[Y1:%.*]] = fadd reassoc double [[Y0]], [[DY]]
; CHECK-NEXT:    store double [[Y1]], ptr %y.adj
; CHECK-NEXT:    [[REST:%.*]] = insertelement <2 x double> %v.d, double {{-?}}0.000000e+00, i32 1
; CHECK-NEXT:    [[Q0:%.*]] = load <2 x double>, ptr %v0.adj
; CHECK-NEXT:    [[Q1:%.*]] = fadd reassoc <2 x double> [[Q0]], [[REST]]
; CHECK-NEXT:    store <2 x double> [[Q1]], ptr %v0.adj
; v0 = insertelement poison, x, 0: dx += dv0[0]
; CHECK-NEXT:    %v0.d = load <2 x double>, ptr %v0.adj
; CHECK-NEXT:    store <2 x double> {{.*}}, ptr %v0.adj
; CHECK-NEXT:    [[DX:%.*]] = extractelement <2 x double> %v0.d, i32 0
; CHECK-NEXT:    [[X0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[X1:%.*]] = fadd reassoc double [[X0]], [[DX]]
; CHECK-NEXT:    store double [[X1]], ptr %x.adj
