// A variadic function has no fixed parameter list to assign markers to.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdarg.h>

double f(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = va_arg(ap, double);
  va_end(ap);
  return s * s;
}

double g(double x) {
  // CHECK: {{.*}}variadic_target.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': 'f' is variadic; hint: differentiate a function with a fixed parameter list
  return __ad_autodiff((void *)f, 1, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
