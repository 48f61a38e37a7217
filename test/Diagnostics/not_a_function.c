// The first argument must name the function to differentiate: a function
// pointer only known at run time, a data object and an entry point declared
// without parameters and called with none are all rejected.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x) { return x * x; }
double (*volatile fp)(double) = f;
double table[4];
double __ad_autodiff_noargs();

double from_pointer(double x) {
  // CHECK-DAG: {{.*}}not_a_function.c:[[@LINE+1]]:10: error: invalid differentiation call in 'from_pointer': the first argument is not a function; hint: pass the function to differentiate, e.g. __ad_autodiff((void *)f, ...)
  return __ad_autodiff((void *)fp, x);
}

double from_data(double x) {
  // CHECK-DAG: {{.*}}not_a_function.c:[[@LINE+1]]:10: error: invalid differentiation call in 'from_data': the first argument is not a function; hint: pass the function to differentiate, e.g. __ad_autodiff((void *)f, ...)
  return __ad_autodiff((void *)table, x);
}

double from_nothing(void) {
  // CHECK-DAG: {{.*}}not_a_function.c:[[@LINE+1]]:10: error: invalid differentiation call in 'from_nothing': the first argument is not a function; hint: pass the function to differentiate, e.g. __ad_autodiff((void *)f, ...)
  return __ad_autodiff_noargs();
}
// CHECK: 3 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
