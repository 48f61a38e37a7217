// An int passed for a long parameter of f (the literal -1) must keep its
// value: the plugin converts arguments to the parameter types, and -1 must
// become -1L, not 4294967295 (zero extension). Either the derivative is
// right (df/dx = k = -1) or the plugin rejects the value's type.
// RUN: %clang_ad -O0 -g -fno-crash-diagnostics %s -o %t.O0 2> %t.O0.err && %run %t.O0 || FileCheck %s --input-file=%t.O0.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: %clang_ad -O2 -g -fno-crash-diagnostics %s -o %t.O2 2> %t.O2.err && %run %t.O2 || FileCheck %s --input-file=%t.O2.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdio.h>

double f(double x, long k) { return x * k; }

int main(void) {
  // CHECK: {{.*}}int_arg_for_long.c:[[@LINE+1]]:{{[0-9]+}}: error: invalid differentiation call in 'main': {{.+}}; hint: {{.+}}
  double d = __ad_autodiff((void *)f, 3.0, -1);
  printf("d = %g (expected -1)\n", d);
  return d == -1.0 ? 0 : 1;
}
