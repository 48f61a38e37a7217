// The declared return type of an entry point must hold what the call
// returns: one adjoint -> that type, several -> a struct of them. An int
// cannot hold the double adjoint (today it silently yields the low bytes of
// 6.0, i.e. 0), and a double cannot hold two adjoints (today the second is
// silently dropped). Both are malformed calls.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

int __ad_autodiff_int(void *, ...);

double sq(double x) { return x * x; }
double mul(double x, double y) { return x * y; }

int as_int(double x) {
  // CHECK-DAG: {{.*}}return_type_mismatch.c:[[@LINE+1]]:10: error: invalid differentiation call in 'as_int': {{.+}}; hint: {{.+}}
  return __ad_autodiff_int((void *)sq, x);
}

double two_into_one(double x, double y) {
  // CHECK-DAG: {{.*}}return_type_mismatch.c:[[@LINE+1]]:10: error: invalid differentiation call in 'two_into_one': {{.+}}; hint: {{.+}}
  return __ad_autodiff((void *)mul, x, y);
}
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
