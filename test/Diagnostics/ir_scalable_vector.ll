; Scalable vectors (SVE, RVV) have sizes known only at run time; shadows and
; tape records are sized at compile time, so both modes refuse them with a
; diagnostic instead of aborting in LLVM ("Cannot implicitly convert a
; scalable size to a fixed-width size", found by the fuzzer).
; RUN: not %opt_ad -passes=ad %s -S -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

define double @f(ptr %p, double %x) {
  %v = load <vscale x 2 x double>, ptr %p
  %s = call double @llvm.vector.reduce.fadd.nxv2f64(double %x, <vscale x 2 x double> %v)
  ret double %s
}
declare double @llvm.vector.reduce.fadd.nxv2f64(double, <vscale x 2 x double>)
define double @caller(ptr %p, ptr %dp, double %x) {
  %r = call double (ptr, ...) @__ad_autodiff(ptr @f, ptr %p, ptr %dp, double %x)
  ret double %r
}
declare double @__ad_autodiff(ptr, ...)
; CHECK: error: {{.*}}cannot differentiate 'f': scalable vectors (sizes known only at run time) are not supported; hint: compile for a target without scalable vectors (SVE, RVV) or with -fno-vectorize
