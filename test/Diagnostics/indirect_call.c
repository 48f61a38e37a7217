// A call through a function pointer with a differentiated argument: the
// callee is not known at compile time. The pointer comes from a global (f)
// or from an __ad_const parameter (t), and may be sq, which another file
// defines. (Where every function it may be is defined in the module, the
// call is differentiated: test/Integration/cxx_function_pointers.cpp.)
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double sq(double x); /* defined in another file */
double (*volatile op)(double) = sq;

double f(double x) {
  // CHECK-DAG: {{.*}}indirect_call.c:[[@LINE+1]]:10: error: cannot differentiate 'f': indirect call or inline assembly with differentiated arguments; hint: define the function in this module, or call it only with __ad_const data
  return op(x) + x;
}

double t(double x, double (*fn)(double)) {
  // CHECK-DAG: {{.*}}indirect_call.c:[[@LINE+1]]:14: error: cannot differentiate 't': indirect call or inline assembly with differentiated arguments; hint: define the function in this module, or call it only with __ad_const data
  return x * fn(x);
}

double g(double x) { return __ad_autodiff((void *)f, x); }
double h(double x) { return __ad_autodiff((void *)t, x, __ad_const, sq); }
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
