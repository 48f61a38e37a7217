; opt: the function to differentiate arrives as a run-time pointer (a
; parameter of the caller), so no function can be synthesized for it.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @caller(ptr %fn, double %x) {
entry:
  %g = call double (ptr, ...) @__ad_fwddiff(ptr %fn, double %x, double 1.0)
  ret double %g
}

declare double @__ad_fwddiff(ptr, ...)

; CHECK: error: <unknown>:0:0: in function caller double (ptr, double): invalid differentiation call in 'caller': the first argument is not a function; hint: pass the function to differentiate, e.g. __ad_autodiff((void *)f, ...)
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump
