; A pointer into differentiated memory produced by an atomic exchange: its
; shadow cannot be derived from the instruction (reverse mode).
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

define double @g(ptr %pp, ptr %p) {
  %q = atomicrmw xchg ptr %pp, ptr %p monotonic
  %v = load double, ptr %q
  ret double %v
}
define double @caller(ptr %pp, ptr %dpp, ptr %p, ptr %dp) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @g, ptr %pp, ptr %dpp, ptr %p, ptr %dp)
  ret double %r
}
declare double @__ad_autodiff(ptr, ...)
; CHECK: error: {{.*}}cannot differentiate 'g': cannot compute the shadow of a pointer produced by 'atomicrmw'; hint: compute pointers with ordinary indexing
