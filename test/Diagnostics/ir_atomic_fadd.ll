; An atomic read-modify-write on a differentiated value (OpenMP and CUDA
; reductions are written this way): no rule yet, so an error rather than a
; derivative that ignores it.
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

define double @f(ptr %p, double %x) {
  %old = atomicrmw fadd ptr %p, double %x monotonic
  %r = fmul double %old, %x
  ret double %r
}
define double @caller(ptr %p, ptr %dp, double %x) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %p, ptr %dp, double %x)
  ret double %r
}
declare double @__ad_autodiff(ptr, ...)
; CHECK: error: {{.*}}cannot differentiate 'f': no derivative rule for instruction 'atomicrmw'; hint: rewrite this operation or report it as a missing rule
