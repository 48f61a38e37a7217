// __ad_out asks for an adjoint to be returned, which only a floating-point
// value passed by value has; a pointer must be __ad_dup (or __ad_const).
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double *x) { return x[0] * x[0]; }

double g(double *x) {
  // CHECK: {{.*}}out_on_pointer.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': __ad_out needs a floating-point parameter 1 of 'f'; hint: use __ad_dup for pointers and __ad_const for integers
  return __ad_autodiff((void *)f, __ad_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
