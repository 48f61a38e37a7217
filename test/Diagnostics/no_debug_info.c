// Without -g there is no line information for instructions: the error points
// at the declaration of the function it names (the caller for a malformed
// call, the differentiated function when its body cannot be differentiated).
// RUN: not %clang_ad -O0 -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double mystery(double);

// CHECK-DAG: {{.*}}no_debug_info.c:[[@LINE+1]]:8: error: cannot differentiate 'f': call to 'mystery', which has no body and no derivative rule; hint: define the function in this module, or call it only with __ad_const data
double f(double x) {
  double y = x * x;
  return mystery(y) + x;
}

double g(double x) {
  return __ad_autodiff((void *)f, x);
}

// CHECK-DAG: {{.*}}no_debug_info.c:[[@LINE+1]]:8: error: invalid differentiation call in 'h': too many arguments for 'f' (it has 1 parameter{{s?}}); hint: pass one value per parameter, plus a shadow after each __ad_dup one
double h(double x) {
  double a = x + 1.0;
  return __ad_autodiff((void *)f, x, a);
}
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
