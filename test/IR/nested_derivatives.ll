; Nested derivatives: df calls __ad_autodiff(f, x), and df is differentiated
; in forward mode (forward over reverse) and reverse mode (reverse over
; reverse). The inner call is lowered first, so df calls f.ad.gradient and
; no entry point is left anywhere; the outer derivatives then differentiate
; f.ad.gradient's code, tape included (rules/TapeCalls.cpp):
;  - its tangent pushes and pops a shadow tape beside the tape, stores the
;    tangent of each recorded value in the shadow record and reads it back
;    beside the value, and frees both tapes;
;  - its augmented forward sweep gives each pushed record a zeroed block of
;    its own (stacked on the shadow tape, unstacked by the inner pop), and
;    its adjoint reads and clears the block where the value was stored, then
;    frees it.
; f multiplies p by x until p reaches 10: a loop of data-dependent trip
; count, whose gradient tapes p once per iteration.
; RUN: %opt_ad -passes=ad %s -S | FileCheck %s --implicit-check-not=__ad_autodiff --implicit-check-not=__ad_fwddiff

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  br label %loop

loop:
  %p = phi double [ 1.0, %entry ], [ %q, %loop ]
  %q = fmul double %p, %x
  %more = fcmp olt double %q, 1.0e1
  br i1 %more, label %loop, label %exit

exit:
  ret double %q
}

define double @df(double %x) {
entry:
  %d = call double (ptr, ...) @__ad_autodiff(ptr @f, double %x)
  ret double %d
}

define double @fwd_over_rev(double %x) {
entry:
  %t = call double (ptr, ...) @__ad_fwddiff(ptr @df, double %x, double 1.0)
  ret double %t
}

define double @rev_over_rev(double %x) {
entry:
  %t = call double (ptr, ...) @__ad_autodiff(ptr @df, double %x)
  ret double %t
}

declare double @__ad_autodiff(ptr, ...)
declare double @__ad_fwddiff(ptr, ...)

; CHECK-LABEL: define double @df(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[G:%.*]] = call { double } @f.ad.gradient(double %x, double 1.000000e+00)
; CHECK-NEXT:    [[D:%.*]] = extractvalue { double } [[G]], 0
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define double @fwd_over_rev(double %x)
; CHECK:         call { double, double } @df.ad.tangent(double %x, double 1.000000e+00)

; CHECK-LABEL: define double @rev_over_rev(double %x)
; CHECK:         call { double } @df.ad.gradient(double %x, double 1.000000e+00)

; CHECK-LABEL: define internal { double } @f.ad.gradient(
; CHECK:         %tape = alloca %ad.tape
; CHECK:         call ptr @__ad_tape_push(ptr %tape, i64 12)
; CHECK:         call ptr @__ad_tape_pop(ptr %tape, i64 12)
; CHECK:         call void @__ad_tape_free(ptr %tape)

; The gradient of df calls the split derivative of f.ad.gradient.
; CHECK-LABEL: define internal { double } @df.ad.gradient(
; CHECK:         call { double } @f.ad.gradient.ad.augmented(double %0, double 1.000000e+00, ptr %tape)
; CHECK:         call { double } @f.ad.gradient.ad.adjoint({ double } %{{.*}}, ptr %tape)

; CHECK-LABEL: define internal { double } @f.ad.gradient.ad.augmented(
; CHECK:         %tape.shadow = call ptr @calloc(i64 1, i64 24)
; CHECK:       loop:
; CHECK:         %record2 = call ptr @__ad_tape_push(ptr %tape, i64 12)
; CHECK-NEXT:    %record.shadow = call ptr @calloc(i64 1, i64 12)
; CHECK-NEXT:    [[SLOT:%.*]] = call ptr @__ad_tape_push(ptr %tape.shadow, i64 8)
; CHECK-NEXT:    store ptr %record.shadow, ptr [[SLOT]], align 1
; CHECK:       rev.loop:
; CHECK:         %record = call ptr @__ad_tape_pop(ptr %tape, i64 12)
; CHECK-NEXT:    [[SLOT2:%.*]] = call ptr @__ad_tape_pop(ptr %tape.shadow, i64 8)
; CHECK-NEXT:    %record.shadow2 = load ptr, ptr [[SLOT2]], align 1
; CHECK:         call void @__ad_tape_free(ptr %tape)
; CHECK-NEXT:    call void @__ad_tape_free(ptr %tape.shadow)

; The adjoint of the inner pop's load of p accumulates into the block; the
; adjoint of the inner push's store of p reads and clears it, then frees it.
; CHECK-LABEL: define internal { double } @f.ad.gradient.ad.adjoint(
; CHECK:       rev.loop:
; CHECK:         %record.shadow.saved = load ptr, ptr
; CHECK:         [[PS:%.*]] = getelementptr inbounds i8, ptr %record.shadow.saved, i64 0
; CHECK:         [[DP:%.*]] = load double, ptr [[PS]], align 1
; CHECK-NEXT:    store double 0.000000e+00, ptr [[PS]], align 1
; CHECK:         call void @free(ptr %record.shadow.saved)
; CHECK:       rev.rev.loop:
; CHECK:         %record.shadow2.saved = load ptr, ptr
; CHECK-NEXT:    [[QS:%.*]] = getelementptr inbounds i8, ptr %record.shadow2.saved, i64 0
; CHECK:         %p.saved.d = load double, ptr %p.saved.adj
; CHECK:         [[OLD:%.*]] = load double, ptr [[QS]], align 1
; CHECK-NEXT:    [[NEW:%.*]] = fadd reassoc double [[OLD]], %p.saved.d
; CHECK-NEXT:    store double [[NEW]], ptr [[QS]], align 1

; CHECK-LABEL: define internal { double, double } @df.ad.tangent(
; CHECK:         call { { double }, { double } } @f.ad.gradient.ad.tangent(double %0, double 1.000000e+00, double %1)

; CHECK-LABEL: define internal { { double }, { double } } @f.ad.gradient.ad.tangent(
; CHECK:         %tape.shadow = alloca %ad.tape
; CHECK:       loop:
; CHECK:         %p.d = phi double
; CHECK:         %record2 = call ptr @__ad_tape_push(ptr %tape, i64 12)
; CHECK-NEXT:    %record.shadow = call ptr @__ad_tape_push(ptr %tape.shadow, i64 12)
; CHECK-NEXT:    [[F:%.*]] = getelementptr inbounds i8, ptr %record2, i64 0
; CHECK-NEXT:    [[FS:%.*]] = getelementptr inbounds i8, ptr %record.shadow, i64 0
; CHECK-NEXT:    store double %p, ptr [[F]], align 1
; CHECK-NEXT:    store double %p.d, ptr [[FS]], align 1
; CHECK:       rev.loop:
; CHECK:         %record = call ptr @__ad_tape_pop(ptr %tape, i64 12)
; CHECK-NEXT:    %record.shadow1 = call ptr @__ad_tape_pop(ptr %tape.shadow, i64 12)
; CHECK-NEXT:    [[R:%.*]] = getelementptr inbounds i8, ptr %record, i64 0
; CHECK-NEXT:    [[RS:%.*]] = getelementptr inbounds i8, ptr %record.shadow1, i64 0
; CHECK-NEXT:    %p.saved = load double, ptr [[R]], align 1
; CHECK-NEXT:    %p.saved.d = load double, ptr [[RS]], align 1
; CHECK:         call void @__ad_tape_free(ptr %tape)
; CHECK-NEXT:    call void @__ad_tape_free(ptr %tape.shadow)
