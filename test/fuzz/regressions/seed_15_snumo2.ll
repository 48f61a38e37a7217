; Found by ad_fuzz.py, variant snumo2 (O2, then the plugin; derivatives
; compared with finite differences), seeds 15 and 59 of the first version of
; synth.py; reduced by hand. O2 turns a copy of a zeroed local double into
; `store i64 0`. In reverse mode that integer store overwrites y[0] but leaves
; its shadow alone, so the seed in dy still flows back into the earlier
; `store double %a`: __ad_autodiff returns d/da = 1 instead of 0 (forward
; mode gives 0). A store of any type must reset the shadow bytes it
; overwrites; the reverse sweep now zeroes the shadow of an integer store.
;
; RUN: %opt_ad -passes=ad %s -S -o %t.ll
; RUN: lli %t.ll | FileCheck %s
; CHECK: reverse da={{-?}}0 dy={{-?}}0
; CHECK: forward dy={{-?}}0{{$}}

@__ad_dup = external global i32
declare double @__ad_autodiff(ptr, ...)
declare void @__ad_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [35 x i8] c"reverse da=%g dy=%g\0Aforward dy=%g\0A\00"

; y[0] = a, then y[0] = +0.0 written as an integer: y's final value does not
; depend on a.
define void @f(ptr %y, double %a) {
  store double %a, ptr %y
  store i64 0, ptr %y
  ret void
}

define i32 @main() {
  %y = alloca double
  %dy = alloca double
  %m = load i32, ptr @__ad_dup
  store double 0.0, ptr %y
  store double 1.0, ptr %dy
  %da = call double (ptr, ...) @__ad_autodiff(ptr @f, i32 %m, ptr %y, ptr %dy, double 3.0)
  %rdy = load double, ptr %dy
  store double 0.0, ptr %dy
  call void (ptr, ...) @__ad_fwddiff(ptr @f, i32 %m, ptr %y, ptr %dy, double 3.0, double 1.0)
  %fdy = load double, ptr %dy
  call i32 (ptr, ...) @printf(ptr @fmt, double %da, double %rdy, double %fdy)
  ret i32 0
}
