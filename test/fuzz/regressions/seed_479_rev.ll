; Found by ad_fuzz.py (llvm-stress seeds 479 and 795, variants rev, mixed,
; fprev), reduced with llvm-reduce and by hand. %l carries the bits of a
; double (it is bitcast to one), so it gets a floating-point shadow; the
; reverse sweep's shadow of the select pairs that double shadow with the
; integer operand `i64 0` unchanged, and the plugin's own verification reports
;   internal error: the synthesized derivative 'f.ad.gradient' is invalid IR:
;   Invalid operands for select instruction!
;     %9 = select i1 %c, double %s.d, i64 0
; Forward mode handles the same function. Either a derivative that verifies
; or a clean diagnostic (not "internal error") is acceptable.
;
; RUN: python3 %src/test/fuzz/ad_fuzz.py --plugin %plugin --check %s --expect pass

declare void @__ad_autodiff(ptr, ...)

define void @f(ptr %p, i1 %c) {
  %l = load i64, ptr %p
  %d = bitcast i64 %l to double
  %s = select i1 %c, i64 %l, i64 0
  store i64 %s, ptr %p
  ret void
}

define void @caller(ptr %p, ptr %dp, i1 %c) {
  call void (ptr, ...) @__ad_autodiff(ptr @f, ptr %p, ptr %dp, i1 %c)
  ret void
}
