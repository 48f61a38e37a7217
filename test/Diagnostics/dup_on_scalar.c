// __ad_dup on a double passed by value is meaningless in reverse mode (its
// adjoint is returned, __ad_out); in forward mode __ad_dup on an integer is
// rejected too (integers carry no tangent).
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x) { return x * x; }
double k(int n, double x) { return n * x; }

double g(double x, double dx) {
  // CHECK-DAG: {{.*}}dup_on_scalar.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': __ad_dup needs a pointer parameter 1 of 'f' in reverse mode; hint: use __ad_out for a floating-point value passed by value
  return __ad_autodiff((void *)f, __ad_dup, x, dx);
}

double h(double x) {
  // CHECK-DAG: {{.*}}dup_on_scalar.c:[[@LINE+1]]:10: error: invalid differentiation call in 'h': __ad_dup needs a pointer parameter 1 of 'k'; hint: use __ad_const for integers
  return __ad_fwddiff((void *)k, __ad_dup, 3, 1, x, 1.0);
}
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
