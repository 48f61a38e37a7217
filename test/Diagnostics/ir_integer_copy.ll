; An i64 load stored to another place, with no TBAA tag and no typed
; allocation behind either pointer: -O2 emits exactly this for a copy of a
; double (with a "double" tag, which the plugin reads; see
; test/fuzz/regressions/seed_42_snumo2_tbaa.ll) and for a copy of a long.
; Guessing either way could give a wrong derivative, so it is an error.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

define void @f(ptr %x, ptr %y) {
  %v = load i64, ptr %x
  store i64 %v, ptr %y
  ret void
}
define void @caller(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}
declare void @__ad_autodiff(ptr, ...)
; CHECK: error: {{.*}}cannot differentiate 'f': cannot tell whether this integer copy moves floating-point data (an optimized copy of a double looks the same as one of an integer); hint: copy through typed pointers, and keep strict aliasing (the default) so that accesses carry their type
