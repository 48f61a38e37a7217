; A float function called through the variadic entry point, as C compiles it:
; the float arguments arrive fpext'd to double (default promotions) and are
; converted back to float with fptrunc; the float adjoint is fpext'd to the
; double the prototype returns. y is __ad_const: no adjoint reaches it, and
; sinf's derivative is llvm.cos.f32.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_const = external global i32

define float @f(float %x, float %y) {
entry:
  %m = fmul float %x, %y
  %s = call float @sinf(float %m)
  ret float %s
}

declare float @sinf(float)

define float @caller(float %x, float %y) {
entry:
  %xd = fpext float %x to double
  %k = load i32, ptr @__ad_const
  %yd = fpext float %y to double
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %xd, i32 %k, double %yd)
  %gf = fptrunc double %g to float
  ret float %gf
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-NOT:   @__ad_const
; CHECK-LABEL: define float @caller(
; CHECK:         [[XT:%.*]] = fptrunc double %xd to float
; CHECK-NEXT:    [[YT:%.*]] = fptrunc double %yd to float
; CHECK-NEXT:    [[G:%.*]] = call { float } @f.ad.gradient(float [[XT]], float [[YT]], float 1.000000e+00)
; CHECK-NEXT:    [[DX:%.*]] = extractvalue { float } [[G]], 0
; CHECK-NEXT:    [[DXE:%.*]] = fpext float [[DX]] to double
; CHECK-NEXT:    %gf = fptrunc double [[DXE]] to float
; CHECK-NEXT:    ret float %gf

; CHECK-LABEL: define internal { float } @f.ad.gradient(
; CHECK-SAME:    float [[X:%[0-9]+]], float [[Y:%[0-9]+]], float [[SEED:%[0-9]+]])
; CHECK-NOT:     %y.adj
; CHECK:         %m = fmul float [[X]], [[Y]]
; CHECK-NEXT:    %s = call float @sinf(float %m)
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %s.d = load float, ptr %s.adj
; CHECK-NEXT:    store float {{-?}}0.000000e+00, ptr %s.adj
; CHECK-NEXT:    [[COS:%.*]] = call float @llvm.cos.f32(float %m)
; CHECK-NEXT:    [[DM:%.*]] = fmul float [[COS]], %s.d
; CHECK-NEXT:    [[M0:%.*]] = load float, ptr %m.adj
; CHECK-NEXT:    [[M1:%.*]] = fadd reassoc float [[M0]], [[DM]]
; CHECK-NEXT:    store float [[M1]], ptr %m.adj
; CHECK-NEXT:    %m.d = load float, ptr %m.adj
; CHECK-NEXT:    store float {{-?}}0.000000e+00, ptr %m.adj
; Only x's adjoint: y * dm.
; CHECK-NEXT:    [[D:%.*]] = fmul float [[Y]], %m.d
; CHECK-NEXT:    [[X0:%.*]] = load float, ptr %x.adj
; CHECK-NEXT:    [[X1:%.*]] = fadd reassoc float [[X0]], [[D]]
; CHECK-NEXT:    store float [[X1]], ptr %x.adj
; CHECK-NEXT:    br label %rev.exit
; CHECK-NOT:     %y.adj
; CHECK:         ret { float }
