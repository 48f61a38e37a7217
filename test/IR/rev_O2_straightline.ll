; With ad<O2>, the plugin optimizes the derivative it synthesized: a gradient
; of straight-line code with no loop needs no tape, so no tape is allocated,
; pushed, popped or freed; the adjoint slots become registers and the dead
; primal sin(x) disappears. What remains is
;   dx = cos(x) * seed + y * seed      (y is __ad_const)
; with the seed 1.0 the only call passes folded in (x * 1.0 is x exactly):
;   dx = cos(x) + y
; RUN: %opt_ad -passes='ad<O2>' -ad-inline-derivatives=false %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_const = external global i32

define double @f(double %x, double %y) {
entry:
  %xy = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %x)
  %r = fadd double %xy, %s
  ret double %r
}

declare double @llvm.sin.f64(double)

define double @caller(double %x, double %y) {
entry:
  %k = load i32, ptr @__ad_const
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x, i32 %k, double %y)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double %{{[0-9]+}})
; CHECK-NOT:     alloca
; CHECK-NOT:     __ad_tape
; CHECK-NOT:     @llvm.sin
; CHECK:         [[COS:%.*]] = {{(tail )?}}call double @llvm.cos.f64(double [[X]])
; CHECK-NEXT:    [[S:%.*]] = fadd reassoc double [[COS]], [[Y]]
; CHECK-NOT:     br
; CHECK-NOT:     __ad_tape
; CHECK-NOT:     alloca
; CHECK:         ret { double }
; CHECK-NEXT:  }
