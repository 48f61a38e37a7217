; __ad_dup in reverse mode before a double passed by value is a malformed
; call: a diagnostic naming the caller, not a crash or a silent result.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_dup = external global i32

define double @f(double %x) {
entry:
  %y = fmul double %x, %x
  ret double %y
}

define double @caller(double %x) {
entry:
  %k = load i32, ptr @__ad_dup
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, i32 %k, double %x, double 1.0)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK: error: {{.*}}invalid differentiation call in 'caller': __ad_dup needs a pointer
