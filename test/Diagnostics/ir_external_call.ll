; opt on IR without debug info: a call to a body-less function with an active
; argument inside the differentiated function. With no location to give, the
; error names the function (f, not the caller) and the callee.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare double @opaque(double)

define double @f(double %x) {
entry:
  %sq = fmul double %x, %x
  %o = call double @opaque(double %sq)
  %r = fadd double %o, %x
  ret double %r
}

define double @caller(double %x) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK: error: <unknown>:0:0: in function f double (double): cannot differentiate 'f': call to 'opaque', which has no body and no derivative rule; hint: define the function in this module, or call it only with __ad_const data
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump
