; Reverse mode with a local array that cannot be promoted (dynamic index): the
; alloca gets a shadow alloca, zeroed with memset, and GEPs into it are
; mirrored. f(x, n) = buf[n] * x with buf[0] = x; for n = 0 that is x^2.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, i32 %n) {
entry:
  %buf = alloca [4 x double]
  store double %x, ptr %buf
  %i = sext i32 %n to i64
  %p = getelementptr inbounds [4 x double], ptr %buf, i64 0, i64 %i
  %v = load double, ptr %p
  %r = fmul double %v, %x
  ret double %r
}

define double @caller(double %x, i32 %n) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %n)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK:         %buf = alloca [4 x double]
; CHECK-NEXT:    %buf.shadow = alloca [4 x double]
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 %buf.shadow, i8 0, i64 32, i1 false)
; CHECK-NEXT:    store double [[X]], ptr %buf
; CHECK-NEXT:    %i = sext i32 [[N]] to i64
; CHECK-NEXT:    %p = getelementptr inbounds [4 x double], ptr %buf, i64 0, i64 %i
; CHECK-NEXT:    %p.shadow = getelementptr inbounds [4 x double], ptr %buf.shadow, i64 0, i64 %i
; CHECK-LABEL: rev.entry:
; r = v * x
; CHECK:         [[DV:%.*]] = fmul double [[X]], %r.d
; CHECK:         store double %{{.*}}, ptr %v.adj
; CHECK:         [[DX:%.*]] = fmul double %v, %r.d
; CHECK:         store double %{{.*}}, ptr %x.adj
; v = *p: p.shadow += dv
; CHECK-NEXT:    %v.d = load double, ptr %v.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v.adj
; CHECK-NEXT:    [[S0:%.*]] = load double, ptr %p.shadow
; CHECK-NEXT:    [[S1:%.*]] = fadd reassoc double [[S0]], %v.d
; CHECK-NEXT:    store double [[S1]], ptr %p.shadow
; buf[0] = x: dx += buf.shadow[0]; buf.shadow[0] = 0
; CHECK-NEXT:    [[B:%.*]] = load double, ptr %buf.shadow
; CHECK-NEXT:    store double 0.000000e+00, ptr %buf.shadow
; CHECK-NEXT:    [[X0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[X1:%.*]] = fadd reassoc double [[X0]], [[B]]
; CHECK-NEXT:    store double [[X1]], ptr %x.adj
; CHECK-NEXT:    br label %rev.exit
