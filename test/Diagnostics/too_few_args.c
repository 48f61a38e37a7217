// A reverse-mode call that stops before the last parameter of f.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x, double y) { return x * y; }

double g(void) {
  // CHECK: {{.*}}too_few_args.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': too few arguments: nothing for parameter 2 of 'f'; hint: pass one value per parameter, plus a shadow after each __ad_dup one
  return __ad_autodiff((void *)f, 3.0);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
