// Each parameter takes at most one marker.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x, double y) { return x * y; }

double g(double x, double y) {
  // CHECK: {{.*}}two_markers.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': two markers in a row for parameter 1 of 'f'; hint: write one marker, then the value
  return __ad_autodiff((void *)f, __ad_const, __ad_out, x, y);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
