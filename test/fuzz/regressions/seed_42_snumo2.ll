; Found by ad_fuzz.py, variant snumo2 (O2, then the plugin; derivatives
; compared with finite differences), seeds 42 and 40 of the first version of
; synth.py; reduced by hand. O2 turns an 8-byte memcpy of a double into
; `load i64` + `store i64`. Forward mode copies the tangent bits along
; (dy = dx = 1), but the reverse sweep ignores the pair: dx stays 0 and the
; seed stays in dy, where the contract wants dx += dy (= 1) and dy reset to 0.
; The same silent wrong derivative from C at -O2: int_copy_O2.c,
; where clang's TBAA tag now tells the plugin the i64 is a double.
;
; Without a TBAA tag (or a typed alloca, global or GEP) nothing tells a copy
; of a double from one of an integer, so the plugin now says so instead of
; guessing; seed_42_snumo2_tbaa.ll has the tagged form, which works.
;
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s
; CHECK: error: {{.*}}cannot differentiate 'f': cannot tell whether this integer copy moves floating-point data

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
