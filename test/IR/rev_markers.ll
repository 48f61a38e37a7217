; All four activity markers in one call, each a load from its global:
;   __ad_dup p dp, __ad_out a, __ad_const c, __ad_dupnoneed q dq.
; f returns t = p[0] * a and writes q[0] = t * c. The gradient takes primals,
; then shadows, then the seed, and returns only a's adjoint; c gets none.
; Markers (loads and globals) and the entry point's declaration are removed.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__ad_dup = external global i32
@__ad_out = external global i32
@__ad_const = external global i32
@__ad_dupnoneed = external global i32

define double @f(ptr %p, double %a, double %c, ptr %q) {
entry:
  %v = load double, ptr %p
  %t = fmul double %v, %a
  %u = fmul double %t, %c
  store double %u, ptr %q
  ret double %t
}

define double @caller(ptr %p, ptr %dp, double %a, double %c, ptr %q, ptr %dq) {
entry:
  %m0 = load i32, ptr @__ad_dup
  %m1 = load i32, ptr @__ad_out
  %m2 = load i32, ptr @__ad_const
  %m3 = load i32, ptr @__ad_dupnoneed
  %g = call double (ptr, ...) @__ad_autodiff(ptr @f, i32 %m0, ptr %p, ptr %dp, i32 %m1, double %a, i32 %m2, double %c, i32 %m3, ptr %q, ptr %dq)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-NOT:   @__ad_{{dup|out|const}}
; CHECK-LABEL: define double @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[G:%.*]] = call { double } @f.ad.gradient(ptr %p, double %a, double %c, ptr %q, ptr %dp, ptr %dq, double 1.000000e+00)
; CHECK-NEXT:    [[DA:%.*]] = extractvalue { double } [[G]], 0
; CHECK-NEXT:    ret double [[DA]]
; CHECK-NEXT:  }

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK-SAME:    ptr [[P:%[0-9]+]], double [[A:%[0-9]+]], double [[C:%[0-9]+]], ptr [[Q:%[0-9]+]], ptr [[DP:%[0-9]+]], ptr [[DQ:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-NOT:     %c.adj
; CHECK:         %t = fmul double %v, [[A]]
; CHECK-NEXT:    %u = fmul double %t, [[C]]
; CHECK-NEXT:    store double %u, ptr [[Q]]
; The return's seed goes to t.
; CHECK:         fadd reassoc double %{{.*}}, [[SEED]]
; CHECK-NEXT:    store double %{{.*}}, ptr %t.adj
; CHECK-LABEL: rev.entry:
; q[0] = u: du += dq[0]; dq[0] = 0
; CHECK-NEXT:    [[S:%.*]] = load double, ptr [[DQ]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[DQ]]
; CHECK:         store double %{{.*}}, ptr %u.adj
; u = t * c: only t gets an adjoint (c * du); nothing for the constant c.
; CHECK:         %u.d = load double, ptr %u.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %u.adj
; CHECK-NEXT:    [[DT:%.*]] = fmul double [[C]], %u.d
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %t.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DT]]
; CHECK-NEXT:    store double [[T1]], ptr %t.adj
; CHECK-NEXT:    %t.d = load double, ptr %t.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %t.adj
; t = v * a
; CHECK-NEXT:    [[DV:%.*]] = fmul double [[A]], %t.d
; CHECK:         store double %{{.*}}, ptr %v.adj
; CHECK-NEXT:    [[DAA:%.*]] = fmul double %v, %t.d
; CHECK:         store double %{{.*}}, ptr %a.adj
; v = p[0]: dp[0] += dv
; CHECK-NEXT:    %v.d = load double, ptr %v.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %v.adj
; CHECK-NEXT:    [[P0:%.*]] = load double, ptr [[DP]]
; CHECK-NEXT:    [[P1:%.*]] = fadd reassoc double [[P0]], %v.d
; CHECK-NEXT:    store double [[P1]], ptr [[DP]]
; CHECK-NEXT:    br label %rev.exit
; CHECK-NOT:     %c.adj
; CHECK:         ret { double }

; No marker global, and no declaration of the entry point, is left anywhere.
; CHECK-NOT:   @__ad_dup
; CHECK-NOT:   @__ad_out
; CHECK-NOT:   @__ad_const
; CHECK-NOT:   @__ad_autodiff
