; Reverse mode through float <-> double casts: the adjoint of fptrunc is
; fpext'd back to double, the adjoint of fpext is fptrunc'd back to float, and
; the float argument's adjoint is returned as a float.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define float @f(float %x, double %y) {
entry:
  %xe = fpext float %x to double
  %p = fmul double %xe, %y
  %t = fptrunc double %p to float
  ret float %t
}

define { float, double } @caller(float %x, double %y) {
entry:
  %g = call { float, double } (ptr, ...) @__ad_autodiff_fd(ptr @f, float %x, double %y)
  ret { float, double } %g
}

declare { float, double } @__ad_autodiff_fd(ptr, ...)

; The float return is seeded with a float 1.0.
; CHECK-LABEL: define { float, double } @caller(
; CHECK:         call { float, double } @f.ad.gradient(float %x, double %y, float 1.000000e+00)

; CHECK-LABEL: define internal { float, double } @f.ad.gradient(
; CHECK-SAME:    float [[X:%[0-9]+]], double [[Y:%[0-9]+]], float [[SEED:%[0-9]+]])
; CHECK-DAG:     %x.adj = alloca float
; CHECK-DAG:     %t.adj = alloca float
; CHECK-DAG:     %xe.adj = alloca double
; CHECK:         %xe = fpext float [[X]] to double
; CHECK-NEXT:    %p = fmul double %xe, [[Y]]
; CHECK-NEXT:    %t = fptrunc double %p to float
; CHECK:         fadd reassoc float %{{.*}}, [[SEED]]
; CHECK-LABEL: rev.entry:
; t = fptrunc p: dp += fpext(dt).
; CHECK-NEXT:    %t.d = load float, ptr %t.adj
; CHECK-NEXT:    store float {{-?}}0.000000e+00, ptr %t.adj
; CHECK-NEXT:    [[DTE:%.*]] = fpext float %t.d to double
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %p.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DTE]]
; CHECK-NEXT:    store double [[T1]], ptr %p.adj
; p = xe * y.
; CHECK-NEXT:    %p.d = load double, ptr %p.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %p.adj
; CHECK-NEXT:    [[DXE:%.*]] = fmul double [[Y]], %p.d
; CHECK-NEXT:    [[T2:%.*]] = load double, ptr %xe.adj
; CHECK-NEXT:    [[T3:%.*]] = fadd reassoc double [[T2]], [[DXE]]
; CHECK-NEXT:    store double [[T3]], ptr %xe.adj
; CHECK-NEXT:    [[DY:%.*]] = fmul double %xe, %p.d
; CHECK-NEXT:    [[T4:%.*]] = load double, ptr %y.adj
; CHECK-NEXT:    [[T5:%.*]] = fadd reassoc double [[T4]], [[DY]]
; CHECK-NEXT:    store double [[T5]], ptr %y.adj
; xe = fpext x: dx += fptrunc(dxe), in float.
; CHECK-NEXT:    %xe.d = load double, ptr %xe.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %xe.adj
; CHECK-NEXT:    [[DXT:%.*]] = fptrunc double %xe.d to float
; CHECK-NEXT:    [[T6:%.*]] = load float, ptr %x.adj
; CHECK-NEXT:    [[T7:%.*]] = fadd reassoc float [[T6]], [[DXT]]
; CHECK-NEXT:    store float [[T7]], ptr %x.adj
; CHECK-LABEL: rev.exit:
; CHECK:         %x.d = load float, ptr %x.adj
; CHECK-NEXT:    store float {{-?}}0.000000e+00, ptr %x.adj
; CHECK-NEXT:    [[XR:%.*]] = fadd float %x.d, 0.000000e+00
; CHECK-NEXT:    [[S0:%.*]] = insertvalue { float, double } poison, float [[XR]], 0
; CHECK:         %y.d = load double, ptr %y.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %y.adj
; CHECK-NEXT:    [[YR:%.*]] = fadd double %y.d, 0.000000e+00
; CHECK-NEXT:    insertvalue { float, double } [[S0]], double [[YR]], 1
