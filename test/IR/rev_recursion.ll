; Reverse mode of a recursive function, pw(x, n) = pw(x, n - 1) * x. The
; gradient calls the augmented forward sweep, which calls itself; the adjoint
; calls itself in turn. In split form the argument x is not available in the
; adjoint, so the augmented sweep records r for m = r * x where it is computed,
; and x once per call in the return block's record (with the index of the
; path taken), the first record the adjoint pops.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @pw(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec

base:
  ret double 1.0

rec:
  %n1 = sub i32 %n, 1
  %r = call double @pw(double %x, i32 %n1)
  %m = fmul double %r, %x
  ret double %m
}

define double @caller(double %x, i32 %n) {
entry:
  %g = call double (ptr, ...) @__ad_autodiff(ptr @pw, double %x, i32 %n)
  ret double %g
}

declare double @__ad_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @pw.ad.gradient(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[SEED:%[0-9]+]])
; CHECK-LABEL: rec:
; CHECK:         [[R:%.*]] = call double @pw.ad.augmented(double [[X]], i32 %n1, ptr %tape)
; CHECK-NEXT:    %m = fmul double [[R]], [[X]]
; CHECK-LABEL: rev.rec:
; CHECK:         [[RS:%.*]] = load double, ptr
; CHECK:         %m.d = load double, ptr %m.adj
; CHECK:         [[D0:%.*]] = fmul double [[X]], %m.d
; CHECK:         store double %{{.*}}, ptr %r.adj
; CHECK-NEXT:    [[D1:%.*]] = fmul double [[RS]], %m.d
; CHECK:         store double %{{.*}}, ptr %x.adj
; CHECK-NEXT:    %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[RA:%.*]] = call { double } @pw.ad.adjoint(double %r.d, ptr %tape)
; CHECK-NEXT:    [[DX:%.*]] = extractvalue { double } [[RA]], 0
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd reassoc double [[T0]], [[DX]]
; CHECK-NEXT:    store double [[T1]], ptr %x.adj

; CHECK-LABEL: define internal double @pw.ad.augmented(
; CHECK-SAME:    double [[AX:%[0-9]+]], i32 [[AN:%[0-9]+]], ptr [[ATAPE:%[0-9]+]])
; CHECK-LABEL: rec:
; CHECK-NEXT:    %n1 = sub i32 [[AN]], 1
; CHECK-NEXT:    [[AR:%.*]] = call double @pw.ad.augmented(double [[AX]], i32 %n1, ptr [[ATAPE]])
; CHECK-NEXT:    %m = fmul double [[AR]], [[AX]]
; CHECK-NEXT:    [[REC:%.*]] = call ptr @__ad_tape_push(ptr [[ATAPE]], i64 8)
; CHECK-NEXT:    [[P0:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 0
; CHECK-NEXT:    store double [[AR]], ptr [[P0]]
; CHECK-LABEL: UnifiedReturnBlock:
; CHECK:         [[REC2:%.*]] = call ptr @__ad_tape_push(ptr [[ATAPE]], i64 12)
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr [[REC2]], i64 0
; CHECK-NEXT:    store double [[AX]], ptr [[P1]]
; CHECK:         ret double %UnifiedRetVal

; CHECK-LABEL: define internal { double } @pw.ad.adjoint(
; CHECK-SAME:    double [[DM:%[0-9]+]], ptr [[DTAPE:%[0-9]+]])
; CHECK-LABEL: rev.rec:
; CHECK-NEXT:    [[POP:%.*]] = call ptr @__ad_tape_pop(ptr [[DTAPE]], i64 8)
; CHECK-NEXT:    [[Q8:%.*]] = getelementptr inbounds i8, ptr [[POP]], i64 0
; CHECK-NEXT:    [[RS2:%.*]] = load double, ptr [[Q8]]
; CHECK-NEXT:    %m.d = load double, ptr %m.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %m.adj
; dr += x * dm
; CHECK-NEXT:    [[E0:%.*]] = fmul double [[XS:%.*]], %m.d
; CHECK-NEXT:    [[E1:%.*]] = load double, ptr %r.adj
; CHECK-NEXT:    [[E2:%.*]] = fadd reassoc double [[E1]], [[E0]]
; CHECK-NEXT:    store double [[E2]], ptr %r.adj
; dx += r * dm
; CHECK-NEXT:    [[E3:%.*]] = fmul double [[RS2]], %m.d
; CHECK-NEXT:    [[E4:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[E5:%.*]] = fadd reassoc double [[E4]], [[E3]]
; CHECK-NEXT:    store double [[E5]], ptr %x.adj
; CHECK-NEXT:    %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double {{-?}}0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[RR:%.*]] = call { double } @pw.ad.adjoint(double %r.d, ptr [[DTAPE]])
; CHECK-NEXT:    [[RX:%.*]] = extractvalue { double } [[RR]], 0
; CHECK-NEXT:    [[E6:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[E7:%.*]] = fadd reassoc double [[E6]], [[RX]]
; CHECK-NEXT:    store double [[E7]], ptr %x.adj
; The return block's record is popped first, and x comes from it.
; CHECK-LABEL: rev.UnifiedReturnBlock:
; CHECK-NEXT:    [[POP2:%.*]] = call ptr @__ad_tape_pop(ptr [[DTAPE]], i64 12)
; CHECK-NEXT:    [[Q0:%.*]] = getelementptr inbounds i8, ptr [[POP2]], i64 0
; CHECK-NEXT:    [[XS]] = load double, ptr [[Q0]]
