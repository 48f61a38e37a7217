; Strong zero in the IR: y = maxnum(sqrt(x) * y, 0.5).
; - sqrt's row is Singular (0.5/sqrt(x) is infinite at x = 0): its partial is
;   replaced by 0 where the tangent dx (forward) or the adjoint of s (reverse)
;   is 0 and the partial is infinite or NaN (llvm.is.fpclass 519 = inf|nan),
;   before the multiplication. A finite partial is kept, so that a
;   derivative of the derivative still sees partial * d(dx).
; - fmul's partials are its operands, finite where the operands are: no guard
;   by default; -ad-strong-zero=all guards them too.
; - maxnum chooses: the derivative of the unchosen argument is replaced by 0
;   where the partial (the indicator) is 0.
; - -ad-strong-zero=off: no guard at all.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s
; RUN: %opt_ad -passes=ad -ad-strong-zero=all %s -S | FileCheck %s --check-prefix=ALL
; RUN: %opt_ad -passes=ad -ad-strong-zero=off %s -S | FileCheck %s --check-prefix=OFF
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %s = call double @llvm.sqrt.f64(double %x)
  %m = fmul double %s, %y
  %c = call double @llvm.maxnum.f64(double %m, double 5.000000e-01)
  ret double %c
}

define double @fwd(double %x, double %dx, double %y, double %dy) {
entry:
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %t
}

define { double, double } @rev(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__ad_autodiff_d2(ptr @f, double %x, double %y)
  ret { double, double } %g
}

declare double @llvm.sqrt.f64(double)
declare double @llvm.maxnum.f64(double, double)
declare double @__ad_fwddiff(ptr, ...)
declare { double, double } @__ad_autodiff_d2(ptr, ...)

; CHECK-LABEL: define internal { double, double } @f.ad.tangent(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DX:%[0-9]+]], double [[DY:%[0-9]+]])
; CHECK:         %s = call double @llvm.sqrt.f64(double [[X]])
; CHECK-NEXT:    [[P:%.*]] = fdiv double 5.000000e-01, %s
; CHECK-NEXT:    [[INF:%.*]] = call i1 @llvm.is.fpclass.f64(double [[P]], i32 519)
; CHECK-NEXT:    [[Z:%.*]] = fcmp oeq double [[DX]], 0.000000e+00
; CHECK-NEXT:    [[ZI:%.*]] = and i1 [[Z]], [[INF]]
; CHECK-NEXT:    [[PG:%.*]] = select i1 [[ZI]], double 0.000000e+00, double [[P]]
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[PG]], [[DX]]
; CHECK-NEXT:    %m = fmul double %s, [[Y]]
; CHECK-NEXT:    [[T0:%.*]] = fmul double [[Y]], [[DS]]
; CHECK-NEXT:    [[T1:%.*]] = fmul double %s, [[DY]]
; CHECK-NEXT:    [[DM:%.*]] = fadd double [[T0]], [[T1]]
; CHECK-NEXT:    %c = call double @llvm.maxnum.f64(double %m, double 5.000000e-01)
; CHECK-NEXT:    [[PICK:%.*]] = fcmp oeq double %c, %m
; CHECK-NEXT:    [[IND:%.*]] = select i1 [[PICK]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[INF:%.*]] = call i1 @llvm.is.fpclass.f64(double [[DM]], i32 519)
; CHECK-NEXT:    [[NOT:%.*]] = fcmp oeq double [[IND]], 0.000000e+00
; CHECK-NEXT:    [[NI:%.*]] = and i1 [[NOT]], [[INF]]
; CHECK-NEXT:    [[DMG:%.*]] = select i1 [[NI]], double 0.000000e+00, double [[DM]]
; CHECK-NEXT:    [[DC:%.*]] = fmul double [[IND]], [[DMG]]
; CHECK:         insertvalue { double, double } {{%.*}}, double [[DC]], 1

; CHECK-LABEL: define internal { double, double } @f.ad.gradient(
; CHECK-LABEL: rev.entry:
; CHECK-NEXT:    %c.d = load double, ptr %c.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %c.adj
; CHECK-NEXT:    [[PICK:%.*]] = fcmp oeq double %c, %m
; CHECK-NEXT:    [[IND:%.*]] = select i1 [[PICK]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[INF:%.*]] = call i1 @llvm.is.fpclass.f64(double %c.d, i32 519)
; CHECK-NEXT:    [[NOT:%.*]] = fcmp oeq double [[IND]], 0.000000e+00
; CHECK-NEXT:    [[NI:%.*]] = and i1 [[NOT]], [[INF]]
; CHECK-NEXT:    [[DCG:%.*]] = select i1 [[NI]], double 0.000000e+00, double %c.d
; CHECK-NEXT:    fmul double [[IND]], [[DCG]]
; fmul: unguarded.
; CHECK:         %m.d = load double, ptr %m.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %m.adj
; CHECK-NEXT:    fmul double {{%[0-9]+}}, %m.d
; CHECK-NOT:     select
; CHECK:         %s.d = load double, ptr %s.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %s.adj
; CHECK-NEXT:    [[P:%.*]] = fdiv double 5.000000e-01, %s
; CHECK-NEXT:    [[INF:%.*]] = call i1 @llvm.is.fpclass.f64(double [[P]], i32 519)
; CHECK-NEXT:    [[Z:%.*]] = fcmp oeq double %s.d, 0.000000e+00
; CHECK-NEXT:    [[ZI:%.*]] = and i1 [[Z]], [[INF]]
; CHECK-NEXT:    [[PG:%.*]] = select i1 [[ZI]], double 0.000000e+00, double [[P]]
; CHECK-NEXT:    fmul double [[PG]], %s.d

; ALL-LABEL: define internal { double, double } @f.ad.tangent(
; ALL-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DX:%[0-9]+]], double [[DY:%[0-9]+]])
; ALL:         %m = fmul double %s, [[Y]]
; ALL-NEXT:    [[I0:%.*]] = call i1 @llvm.is.fpclass.f64(double [[Y]], i32 519)
; ALL-NEXT:    [[Z0:%.*]] = fcmp oeq double [[DS:%[0-9]+]], 0.000000e+00
; ALL-NEXT:    [[ZI0:%.*]] = and i1 [[Z0]], [[I0]]
; ALL-NEXT:    [[P0:%.*]] = select i1 [[ZI0]], double 0.000000e+00, double [[Y]]
; ALL-NEXT:    fmul double [[P0]], [[DS]]
; ALL-NEXT:    [[I1:%.*]] = call i1 @llvm.is.fpclass.f64(double %s, i32 519)
; ALL-NEXT:    [[Z1:%.*]] = fcmp oeq double [[DY]], 0.000000e+00
; ALL-NEXT:    [[ZI1:%.*]] = and i1 [[Z1]], [[I1]]
; ALL-NEXT:    [[P1:%.*]] = select i1 [[ZI1]], double 0.000000e+00, double %s
; ALL-NEXT:    fmul double [[P1]], [[DY]]

; OFF-LABEL: define internal { double, double } @f.ad.tangent(
; OFF-NOT:     fcmp oeq double {{%.*}}, 0.000000e+00
; OFF:         ret { double, double }
; OFF-LABEL: define internal { double, double } @f.ad.gradient(
; OFF-NOT:     fcmp oeq double {{%.*}}, 0.000000e+00
; OFF:         ret { double, double }
