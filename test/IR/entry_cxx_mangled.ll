; Entry points declared in C++ without extern "C" are found by their
; demangled names: __ad_autodiff(void*, ...) and __ad_fwddiff_d1(void*, ...).
; Both calls are replaced and both declarations removed. f(x) = x^2.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @_Z1fd(double %x) {
entry:
  %sq = fmul double %x, %x
  ret double %sq
}

define double @_Z1gd(double %x) {
entry:
  %d = call double (ptr, ...) @_Z13__ad_autodiffPvz(ptr @_Z1fd, double %x)
  %t = call double (ptr, ...) @_Z15__ad_fwddiff_d1Pvz(ptr @_Z1fd, double %x, double 1.0)
  %s = fadd double %d, %t
  ret double %s
}

declare double @_Z13__ad_autodiffPvz(ptr, ...)
declare double @_Z15__ad_fwddiff_d1Pvz(ptr, ...)

; CHECK-LABEL: define double @_Z1gd(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[G:%.*]] = call { double } @_Z1fd.ad.gradient(double %x, double 1.000000e+00)
; CHECK-NEXT:    [[D:%.*]] = extractvalue { double } [[G]], 0
; CHECK-NEXT:    [[T:%.*]] = call { double, double } @_Z1fd.ad.tangent(double %x, double 1.000000e+00)
; CHECK-NEXT:    [[DT:%.*]] = extractvalue { double, double } [[T]], 1
; CHECK-NEXT:    %s = fadd double [[D]], [[DT]]
; CHECK-NEXT:    ret double %s

; d(x*x): x * dsq twice.
; CHECK-LABEL: define internal { double } @_Z1fd.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: rev.entry:
; CHECK:         fmul double [[X]], %sq.d
; CHECK:         fmul double [[X]], %sq.d
; CHECK-LABEL: define internal { double, double } @_Z1fd.ad.tangent(
; CHECK-SAME:    double [[TX:%[0-9]+]], double [[TDX:%[0-9]+]])
; CHECK:         [[A:%.*]] = fmul double [[TX]], [[TDX]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[TX]], [[TDX]]
; CHECK-NEXT:    fadd double [[A]], [[B]]

; CHECK-NOT:   __ad_autodiff
; CHECK-NOT:   __ad_fwddiff
