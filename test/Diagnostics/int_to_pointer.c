// A pointer into differentiated memory that round-trips through an integer
// (ptrtoint, add, inttoptr) loses track of its shadow. The derivative must
// be right (dx = {5, 3}) or the plugin must say it cannot follow the pointer;
// a silent 0 in dx[1] is a wrong derivative.
// RUN: %clang_ad -O0 -g -fno-crash-diagnostics %s -o %t.O0 2> %t.O0.err && %run %t.O0 || FileCheck %s --input-file=%t.O0.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: %clang_ad -O2 -g -fno-crash-diagnostics %s -o %t.O2 2> %t.O2.err && %run %t.O2 || FileCheck %s --input-file=%t.O2.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdint.h>
#include <stdio.h>

// CHECK: {{.*}}int_to_pointer.c:{{[0-9]+}}:{{[0-9]+}}: error: cannot differentiate 'f': {{.+}}; hint: {{.+}}
__attribute__((noinline)) double f(double *x) {
  uintptr_t u = (uintptr_t)x;
  u += sizeof(double);
  double *y = (double *)u;
  return *y * x[0];
}

int main(void) {
  double x[2] = {3.0, 5.0}, dx[2] = {0.0, 0.0};
  __ad_autodiff((void *)f, x, dx);
  printf("dx = %g %g (expected 5 3)\n", dx[0], dx[1]);
  return dx[0] == 5.0 && dx[1] == 3.0 ? 0 : 1;
}
