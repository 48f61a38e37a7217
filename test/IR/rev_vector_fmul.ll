; Reverse mode on <2 x double>: m = a * b, s = m[0] + m[1]. The adjoint of an
; extractelement is inserted into a zero vector at the same lane, and the
; vector fmul's adjoint multiplies by the OTHER vector operand, lane-wise. The
; two vector adjoints are returned in a struct.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(<2 x double> %a, <2 x double> %b) {
entry:
  %m = fmul <2 x double> %a, %b
  %e0 = extractelement <2 x double> %m, i32 0
  %e1 = extractelement <2 x double> %m, i32 1
  %s = fadd double %e0, %e1
  ret double %s
}

define { <2 x double>, <2 x double> } @caller(<2 x double> %a, <2 x double> %b) {
entry:
  %g = call { <2 x double>, <2 x double> } (ptr, ...) @__ad_autodiff_v(ptr @f, <2 x double> %a, <2 x double> %b)
  ret { <2 x double>, <2 x double> } %g
}

declare { <2 x double>, <2 x double> } @__ad_autodiff_v(ptr, ...)

; CHECK-LABEL: define { <2 x double>, <2 x double> } @caller(
; CHECK:         call { <2 x double>, <2 x double> } @f.ad.gradient(<2 x double> %a, <2 x double> %b, double 1.000000e+00)

; CHECK-LABEL: define internal { <2 x double>, <2 x double> } @f.ad.gradient(
; CHECK-SAME:    <2 x double> [[A:%[0-9]+]], <2 x double> [[B:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-DAG:     %a.adj = alloca <2 x double>
; CHECK-DAG:     %m.adj = alloca <2 x double>
; CHECK:         %m = fmul <2 x double> [[A]], [[B]]
; CHECK-LABEL: rev.entry:
; e1 = m[1]: dm += <0, de1>
; CHECK:         %e1.d = load double, ptr %e1.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %e1.adj
; CHECK-NEXT:    [[V1:%.*]] = insertelement <2 x double> {{zeroinitializer|splat \(double -0.000000e\+00\)}}, double %e1.d, i32 1
; CHECK-NEXT:    [[M0:%.*]] = load <2 x double>, ptr %m.adj
; CHECK-NEXT:    [[M1:%.*]] = fadd reassoc <2 x double> [[M0]], [[V1]]
; CHECK-NEXT:    store <2 x double> [[M1]], ptr %m.adj
; e0 = m[0]: dm += <de0, 0>
; CHECK-NEXT:    %e0.d = load double, ptr %e0.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %e0.adj
; CHECK-NEXT:    [[V0:%.*]] = insertelement <2 x double> {{zeroinitializer|splat \(double -0.000000e\+00\)}}, double %e0.d, i32 0
; CHECK-NEXT:    [[M2:%.*]] = load <2 x double>, ptr %m.adj
; CHECK-NEXT:    [[M3:%.*]] = fadd reassoc <2 x double> [[M2]], [[V0]]
; CHECK-NEXT:    store <2 x double> [[M3]], ptr %m.adj
; m = a * b: da += b * dm, db += a * dm
; CHECK-NEXT:    %m.d = load <2 x double>, ptr %m.adj
; CHECK-NEXT:    store <2 x double> {{zeroinitializer|splat \(double -0.000000e\+00\)}}, ptr %m.adj
; CHECK-NEXT:    [[DA:%.*]] = fmul <2 x double> [[B]], %m.d
; CHECK-NEXT:    [[A0:%.*]] = load <2 x double>, ptr %a.adj
; CHECK-NEXT:    [[A1:%.*]] = fadd reassoc <2 x double> [[A0]], [[DA]]
; CHECK-NEXT:    store <2 x double> [[A1]], ptr %a.adj
; CHECK-NEXT:    [[DB:%.*]] = fmul <2 x double> [[A]], %m.d
; CHECK-NEXT:    [[B0:%.*]] = load <2 x double>, ptr %b.adj
; CHECK-NEXT:    [[B1:%.*]] = fadd reassoc <2 x double> [[B0]], [[DB]]
; CHECK-NEXT:    store <2 x double> [[B1]], ptr %b.adj
; CHECK-NEXT:    br label %rev.exit
; CHECK-LABEL: rev.exit:
; CHECK:         %a.d = load <2 x double>, ptr %a.adj
; CHECK:         [[S0:%.*]] = insertvalue { <2 x double>, <2 x double> } poison, <2 x double> %{{.*}}, 0
; CHECK:         %b.d = load <2 x double>, ptr %b.adj
; CHECK:         insertvalue { <2 x double>, <2 x double> } [[S0]], <2 x double> %{{.*}}, 1
