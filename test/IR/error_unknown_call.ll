; A call to a function with no body and no derivative rule, on an active
; value, cannot be differentiated: the pass reports an error naming the
; function and the callee instead of producing a zero or wrong derivative.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %y = call double @mystery(double %x)
  ret double %y
}

declare double @mystery(double)

define double @caller(double %x) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK: error: {{.*}}cannot differentiate 'f': call to 'mystery', which has no body and no derivative rule
