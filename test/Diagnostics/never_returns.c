// A function that cannot return (it ends in abort) has no reverse sweep to
// run: reverse mode says so at the function.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdlib.h>

// CHECK: {{.*}}never_returns.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'dies': function never returns; hint: differentiate a function that returns
void dies(double *x) {
  x[0] *= 2;
  abort();
}
void rev(double *x, double *dx) { __ad_autodiff((void *)dies, x, dx); }
// CHECK: 1 error generated.
