// __ad_out exists only in reverse mode.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x) { return x * x; }

double g(double x) {
  // CHECK: {{.*}}out_in_forward.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': __ad_out is not allowed in forward mode (parameter 1 of 'f'); hint: use __ad_dup with a tangent, or __ad_const
  return __ad_fwddiff((void *)f, __ad_out, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
