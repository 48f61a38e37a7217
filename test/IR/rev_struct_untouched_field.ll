; An __ad_out argument's adjoint is returned as +0.0 where nothing reached it:
; accumulators start at -0.0 and the gradient adds +0.0 before returning, for
; scalars and vectors. A struct argument must get the same treatment: here
; p.1 and v[1] are unused, so both come back as +0.0 (not -0.0, whose sign a
; caller can observe with signbit, 1/x or printf).
; RUN: %opt_ad -passes='ad<O2>' -ad-inline-derivatives=false %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f({ double, double } %p, <2 x double> %v) {
entry:
  %a = extractvalue { double, double } %p, 0
  %b = extractelement <2 x double> %v, i32 0
  %m = fmul double %a, %b
  ret double %m
}

define { { double, double }, <2 x double> } @caller({ double, double } %p, <2 x double> %v) {
entry:
  %g = call { { double, double }, <2 x double> } (ptr, ...) @__ad_autodiff_s(ptr @f, { double, double } %p, <2 x double> %v)
  ret { { double, double }, <2 x double> } %g
}

declare { { double, double }, <2 x double> } @__ad_autodiff_s(ptr, ...)

; CHECK-LABEL: define internal { { double, double }, <2 x double> } @f.ad.gradient(
; The unused struct field and vector lane are set to +0.0 before returning.
; CHECK:         insertvalue { double, double } %{{.*}}, double 0.000000e+00, 1
; CHECK:         insertelement <2 x double> <double poison, double 0.000000e+00>
; CHECK:         ret { { double, double }, <2 x double> }
