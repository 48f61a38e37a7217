; Found by ad_fuzz.py, variant snumo2 (O2, then the plugin; derivatives
; compared with finite differences), seeds 42 and 40 of the first version of
; synth.py; reduced by hand. O2 turns an 8-byte memcpy of a double into
; `load i64` + `store i64`. Forward mode copies the tangent bits along
; (dy = dx = 1), but the reverse sweep ignores the pair: dx stays 0 and the
; seed stays in dy, where the contract wants dx += dy (= 1) and dy reset to 0.
; The same silent wrong derivative from C at -O2: int_copy_O2.c,
; where clang's TBAA tag now tells the plugin the i64 is a double.
;
; Here nothing in f types the i64, but the caller does: it passes allocas
; of double (the type analysis follows parameters to their callers), so
; both modes give the right derivative; seed_42_snumo2_tbaa.ll has the
; tagged form, and test/Diagnostics/ir_integer_copy.ll the form nothing
; types, which is an error.
;
; RUN: %opt_ad -passes=ad %s -S -o %t.ll
; RUN: lli %t.ll | FileCheck %s
; CHECK: reverse dx=1 dy={{-?}}0{{$}}
; CHECK: forward dy=1{{$}}

@__ad_dup = external global i32
declare void @__ad_autodiff(ptr, ...)
declare void @__ad_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [35 x i8] c"reverse dx=%g dy=%g\0Aforward dy=%g\0A\00"

define void @f(ptr %x, ptr %y) {
  %v = load i64, ptr %x
  store i64 %v, ptr %y
  ret void
}

define i32 @main() {
  %x = alloca double
  %dx = alloca double
  %y = alloca double
  %dy = alloca double
  %m = load i32, ptr @__ad_dup
  store double 2.0, ptr %x
  store double 0.0, ptr %dx
  store double 0.0, ptr %y
  store double 1.0, ptr %dy
  call void (ptr, ...) @__ad_autodiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %m, ptr %y, ptr %dy)
  %rdx = load double, ptr %dx
  %rdy = load double, ptr %dy
  store double 1.0, ptr %dx
  store double 0.0, ptr %dy
  call void (ptr, ...) @__ad_fwddiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %m, ptr %y, ptr %dy)
  %fdy = load double, ptr %dy
  call i32 (ptr, ...) @printf(ptr @fmt, double %rdx, double %rdy, double %fdy)
  ret i32 0
}
