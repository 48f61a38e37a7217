; Forward mode through calls of a defined function g(v) = exp(v) * v. The call
; whose argument carries a tangent calls g.ad.tangent and takes both primal and
; tangent from its result; the call on the constant c calls plain g. g's
; tangent: de = e * dv, dm = v * de + e * dv.
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_const = external global i32

define double @g(double %v) {
entry:
  %e = call double @llvm.exp.f64(double %v)
  %m = fmul double %e, %v
  ret double %m
}

declare double @llvm.exp.f64(double)

define double @f(double %x, double %c) {
entry:
  %a = call double @g(double %x)
  %b = call double @g(double %c)
  %s = fadd double %a, %b
  ret double %s
}

define double @caller(double %x, double %c) {
entry:
  %k = load i32, ptr @__ad_const
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double 1.0, i32 %k, double %c)
  ret double %t
}

declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[C:%[0-9]+]], double [[DX:%[0-9]+]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[RA:%.*]] = call { double, double } @g.ad.tangent(double [[X]], double [[DX]])
; CHECK-NEXT:    [[A:%.*]] = extractvalue { double, double } [[RA]], 0
; CHECK-NEXT:    %a.d = extractvalue { double, double } [[RA]], 1
; CHECK-NEXT:    %b = call double @g(double [[C]])
; CHECK-NEXT:    %s = fadd double [[A]], %b
; CHECK-NEXT:    [[R0:%.*]] = insertvalue { double, double } poison, double %s, 0
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double %a.d, 1
; CHECK-NEXT:    ret { double, double } [[R1]]

; CHECK-LABEL: define internal { double, double } @g.ad.tangent(
; CHECK-SAME:    double [[V:%[0-9]+]], double [[DV:%[0-9]+]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %e = call double @llvm.exp.f64(double [[V]])
; CHECK-NEXT:    [[DE:%.*]] = fmul double %e, [[DV]]
; CHECK-NEXT:    %m = fmul double %e, [[V]]
; CHECK-NEXT:    [[T0:%.*]] = fmul double [[V]], [[DE]]
; CHECK-NEXT:    [[T1:%.*]] = fmul double %e, [[DV]]
; CHECK-NEXT:    [[DM:%.*]] = fadd double [[T0]], [[T1]]
; CHECK-NEXT:    [[G0:%.*]] = insertvalue { double, double } poison, double %m, 0
; CHECK-NEXT:    [[G1:%.*]] = insertvalue { double, double } [[G0]], double [[DM]], 1
; CHECK-NEXT:    ret { double, double } [[G1]]

; Only one tangent of g.
; CHECK-NOT:   define {{.*}}@g.ad.tangent
