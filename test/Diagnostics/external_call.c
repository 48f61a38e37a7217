// A call, inside the differentiated function, to a function with no body in
// this module and no derivative rule, with an active argument. The error
// names the differentiated function and points at the call inside it, in
// reverse and in forward mode.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double mystery(double);
double enigma(double);

double f(double x) {
  double y = x * 2.0;
  // CHECK-DAG: {{.*}}external_call.c:[[@LINE+1]]:10: error: cannot differentiate 'f': call to 'mystery', which has no body and no derivative rule; hint: define the function in this module, or call it only with __ad_const data
  return mystery(y) + x;
}

double t(double x) {
  // CHECK-DAG: {{.*}}external_call.c:[[@LINE+1]]:14: error: cannot differentiate 't': call to 'enigma', which has no body and no derivative rule; hint: define the function in this module, or call it only with __ad_const data
  return x * enigma(x * x);
}

double g(double x) { return __ad_autodiff((void *)f, x); }
double h(double x) { return __ad_fwddiff((void *)t, x, 1.0); }
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
