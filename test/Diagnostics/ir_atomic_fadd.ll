; An atomic read-modify-write on a differentiated value with no exact rule
; (an atomic maximum: which update won is not recorded anywhere): an error
; rather than a derivative that ignores it. (fadd, fsub and xchg have rules:
; test/IR/cuda_atomic_update.ll.)
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

define double @f(ptr %p, double %x) {
  %old = atomicrmw fmax ptr %p, double %x monotonic
  %r = fmul double %old, %x
  ret double %r
}
define double @caller(ptr %p, ptr %dp, double %x) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %p, ptr %dp, double %x)
  ret double %r
}
declare double @__ad_autodiff(ptr, ...)
; CHECK: error: {{.*}}cannot differentiate 'f': an atomic fmax of differentiated floating-point data has no derivative rule; hint: use atomicAdd, or compute the extreme without atomics
