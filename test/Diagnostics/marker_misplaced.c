// Markers where a value belongs: in the shadow's place after a pointer, and
// as the last argument with no value after it.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double *x, double *y) { return *x * *y; }
double s(double x, double y) { return x * y; }

double g(double *x, double *y) {
  // CHECK-DAG: {{.*}}marker_misplaced.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': a marker stands where the shadow of parameter 1 of 'f' belongs; hint: pass the shadow (or tangent) right after the value
  return __ad_autodiff((void *)f, x, __ad_const, y);
}

double h(double x) {
  // CHECK-DAG: {{.*}}marker_misplaced.c:[[@LINE+1]]:10: error: invalid differentiation call in 'h': too few arguments: nothing after the marker for parameter 2 of 's'; hint: pass the value after its marker
  return __ad_autodiff((void *)s, x, __ad_const);
}
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
