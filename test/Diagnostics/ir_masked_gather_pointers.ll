; A masked gather of pointers out of differentiated memory (AVX-512 code
; walking an array of pointers): the shadows of the gathered pointers would
; have to be gathered too, which neither mode does yet. Reverse mode here;
; forward mode gives the same message.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %t, <2 x i64> %idx) {
  %ps = getelementptr ptr, ptr %t, <2 x i64> %idx
  %g = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> align 8 %ps, <2 x i1> splat (i1 true), <2 x ptr> poison)
  %p0 = extractelement <2 x ptr> %g, i64 0
  %v = load double, ptr %p0
  ret double %v
}
declare <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr>, <2 x i1>, <2 x ptr>)

define double @caller(ptr %t, ptr %dt, <2 x i64> %idx) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %t, ptr %dt, <2 x i64> %idx)
  ret double %r
}
declare double @__ad_autodiff(ptr, ...)
; CHECK: error: {{.*}}cannot differentiate 'f': cannot differentiate a masked load or store of pointers; hint: keep pointers out of vectorized loops, or compile with -fno-vectorize
