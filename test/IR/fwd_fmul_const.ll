; Forward mode product rule: xx = x * x has tangent x*dx + x*dx; r = xx * c
; with c marked __ad_const has tangent c * dxx only (no tangent parameter for
; c, no term for it). The marker load and its global disappear.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_const = external global i32

define double @f(double %x, double %c) {
entry:
  %xx = fmul double %x, %x
  %r = fmul double %xx, %c
  ret double %r
}

define double @caller(double %x, double %c) {
entry:
  %k = load i32, ptr @__ad_const
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double 1.0, i32 %k, double %c)
  ret double %t
}

declare double @__ad_fwddiff(ptr, ...)

; CHECK-NOT:   __ad_const
; CHECK-LABEL: define double @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call { double, double } @f.ad.tangent(double %x, double %c, double 1.000000e+00)
; CHECK-NEXT:    [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-NEXT:    ret double [[T]]

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[C:%[0-9]+]], double [[DX:%[0-9]+]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %xx = fmul double [[X]], [[X]]
; CHECK-NEXT:    [[T0:%.*]] = fmul double [[X]], [[DX]]
; CHECK-NEXT:    [[T1:%.*]] = fmul double [[X]], [[DX]]
; CHECK-NEXT:    [[DXX:%.*]] = fadd double [[T0]], [[T1]]
; CHECK-NEXT:    %r = fmul double %xx, [[C]]
; CHECK-NEXT:    [[DR:%.*]] = fmul double [[C]], [[DXX]]
; CHECK-NEXT:    [[S0:%.*]] = insertvalue { double, double } poison, double %r, 0
; CHECK-NEXT:    [[S1:%.*]] = insertvalue { double, double } [[S0]], double [[DR]], 1
; CHECK-NEXT:    ret { double, double } [[S1]]
; CHECK-NOT:   __ad_const
; CHECK-NOT:   __ad_fwddiff
