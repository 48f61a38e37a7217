// A pointer parameter defaults to __ad_dup, so its shadow must follow it.
// In g nothing follows; in h the next value (the int n) takes the shadow's
// place and has the wrong type.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

double g(double *x) {
  // CHECK-DAG: {{.*}}missing_shadow.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': too few arguments: the shadow of parameter 1 of 'f' is missing; hint: pass the shadow (or tangent) right after the value
  return __ad_autodiff((void *)f, x);
}

double h(double *x, int n) {
  // CHECK-DAG: {{.*}}missing_shadow.c:[[@LINE+1]]:10: error: invalid differentiation call in 'h': the shadow of parameter 1 of 'f' has the wrong type; hint: pass a shadow of the parameter's type
  return __ad_autodiff((void *)f, x, n);
}
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
