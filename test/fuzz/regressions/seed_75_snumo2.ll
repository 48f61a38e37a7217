; Found by ad_fuzz.py, variant snumo2 (O2, then the plugin; derivatives
; compared with finite differences), seed 75 of the first version of
; synth.py; reduced by hand. O2 (SROA of a local array copied from x to y)
; leaves a double's bits in an i64 that goes through a phi before it is
; stored. Both modes lose the derivative: forward mode stores 0 into dy (it
; takes the phi for a constant integer), reverse mode leaves the seed in dy
; and adds nothing to dx. Expected with %c true: reverse dx=1 dy=0, forward
; dy=1.
;
; Here nothing in f types the i64, but the caller does: it passes allocas
; of double (the type analysis follows parameters to their callers), so
; both modes give the right derivative; seed_75_snumo2_tbaa.ll has the
; tagged form, and test/Diagnostics/ir_integer_copy.ll the form nothing
; types, which is an error.
;
; RUN: %opt_ad -passes=ad %s -S -o %t.ll
; RUN: lli %t.ll | FileCheck %s
; CHECK: reverse dx=1 dy={{-?}}0{{$}}
; CHECK: forward dy=1{{$}}

@__ad_dup = external global i32
@__ad_const = external global i32
declare void @__ad_autodiff(ptr, ...)
declare void @__ad_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [35 x i8] c"reverse dx=%g dy=%g\0Aforward dy=%g\0A\00"

; With %c true, y[0] receives the bits of x[0], through a phi of integers.
define void @f(ptr %x, ptr %y, i1 %c) {
entry:
  br i1 %c, label %copy, label %join

copy:
  %v = load i64, ptr %x
  br label %join

join:
  %p = phi i64 [ 0, %entry ], [ %v, %copy ]
  store i64 %p, ptr %y
  ret void
}

define i32 @main() {
  %x = alloca double
  %dx = alloca double
  %y = alloca double
  %dy = alloca double
  %m = load i32, ptr @__ad_dup
  %k = load i32, ptr @__ad_const
  store double 2.0, ptr %x
  store double 0.0, ptr %dx
  store double 0.0, ptr %y
  store double 1.0, ptr %dy
  call void (ptr, ...) @__ad_autodiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %m, ptr %y, ptr %dy, i32 %k, i1 true)
  %rdx = load double, ptr %dx
  %rdy = load double, ptr %dy
  store double 1.0, ptr %dx
  store double 0.0, ptr %dy
  call void (ptr, ...) @__ad_fwddiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %m, ptr %y, ptr %dy, i32 %k, i1 true)
  %fdy = load double, ptr %dy
  call i32 (ptr, ...) @printf(ptr @fmt, double %rdx, double %rdy, double %fdy)
  ret i32 0
}
