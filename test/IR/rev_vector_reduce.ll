; Reverse mode of llvm.vector.reduce.fadd with an active start value, on
; <4 x float>: r = s + sum(v * v). Every lane of the vector operand gets dr (a
; splat), the start value's adjoint gets dr, then v * v sends v * dsq to dv twice.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define float @f(float %s, <4 x float> %v) {
entry:
  %sq = fmul <4 x float> %v, %v
  %r = call reassoc float @llvm.vector.reduce.fadd.v4f32(float %s, <4 x float> %sq)
  ret float %r
}

declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)

define { float, <4 x float> } @caller(float %s, <4 x float> %v) {
entry:
  %g = call { float, <4 x float> } (ptr, ...) @__ad_autodiff_r(ptr @f, float %s, <4 x float> %v)
  ret { float, <4 x float> } %g
}

declare { float, <4 x float> } @__ad_autodiff_r(ptr, ...)

; CHECK-LABEL: define internal { float, <4 x float> } @f.ad.gradient(
; CHECK-SAME:    float [[S:%[0-9]+]], <4 x float> [[V:%[0-9]+]], float [[SEED:%[0-9]+]])
; CHECK:         %sq = fmul <4 x float> [[V]], [[V]]
; CHECK-NEXT:    %r = call reassoc float @llvm.vector.reduce.fadd.v4f32(float [[S]], <4 x float> %sq)
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %r.d = load float, ptr %r.adj
; CHECK-NEXT:    store float {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[INS:%.*]] = insertelement <4 x float> poison, float %r.d, i64 0
; CHECK-NEXT:    [[SPLAT:%.*]] = shufflevector <4 x float> [[INS]], <4 x float> poison, <4 x i32> zeroinitializer
; CHECK-NEXT:    [[Q0:%.*]] = load <4 x float>, ptr %sq.adj
; CHECK-NEXT:    [[Q1:%.*]] = fadd reassoc <4 x float> [[Q0]], [[SPLAT]]
; CHECK-NEXT:    store <4 x float> [[Q1]], ptr %sq.adj
; CHECK-NEXT:    [[S0:%.*]] = load float, ptr %s.adj
; CHECK-NEXT:    [[S1:%.*]] = fadd reassoc float [[S0]], %r.d
; CHECK-NEXT:    store float [[S1]], ptr %s.adj
; CHECK-NEXT:    %sq.d = load <4 x float>, ptr %sq.adj
; CHECK-NEXT:    store <4 x float> {{.*}}, ptr %sq.adj
; CHECK-NEXT:    [[D0:%.*]] = fmul <4 x float> [[V]], %sq.d
; CHECK-NEXT:    [[A0:%.*]] = load <4 x float>, ptr %v.adj
; CHECK-NEXT:    [[A1:%.*]] = fadd reassoc <4 x float> [[A0]], [[D0]]
; CHECK-NEXT:    store <4 x float> [[A1]], ptr %v.adj
; CHECK-NEXT:    [[D1:%.*]] = fmul <4 x float> [[V]], %sq.d
; CHECK-NEXT:    [[A2:%.*]] = load <4 x float>, ptr %v.adj
; CHECK-NEXT:    [[A3:%.*]] = fadd reassoc <4 x float> [[A2]], [[D1]]
; CHECK-NEXT:    store <4 x float> [[A3]], ptr %v.adj
; CHECK-NEXT:    br label %rev.exit
; CHECK-LABEL: rev.exit:
; CHECK:         %s.d = load float, ptr %s.adj
; CHECK:         [[R0:%.*]] = insertvalue { float, <4 x float> } poison, float %{{.*}}, 0
; CHECK:         %v.d = load <4 x float>, ptr %v.adj
; CHECK:         insertvalue { float, <4 x float> } [[R0]], <4 x float> %{{.*}}, 1
