// memcpy of whole structs { int; int; double } whose count is known only at
// run time. The plugin must find the double at offset 8 of each 16-byte
// element and move its adjoint from t's shadow back into s's (ds.v = 6), or
// say it cannot. A silent 0 is a wrong derivative.
// RUN: %clang_ad -O0 -g -fno-crash-diagnostics %s -o %t.O0 2> %t.O0.err && %run %t.O0 || FileCheck %s --input-file=%t.O0.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: %clang_ad -O1 -g -fno-crash-diagnostics %s -o %t.O1 2> %t.O1.err && %run %t.O1 || FileCheck %s --input-file=%t.O1.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: %clang_ad -O2 -g -fno-crash-diagnostics %s -o %t.O2 2> %t.O2.err && %run %t.O2 || FileCheck %s --input-file=%t.O2.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdio.h>
#include <string.h>

struct S { int tag; int pad; double v; };

__attribute__((noinline)) double f(struct S *s, struct S *t, int n) {
  // CHECK: {{.*}}memcpy_mixed_struct.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': {{.+}}; hint: {{.+}}
  memcpy(t, s, n * sizeof(struct S));
  return t->v * t->v + t->tag;
}

int main(int argc, char **argv) {
  (void)argv;
  struct S s = {1, 0, 3.0}, ds = {0, 0, 0.0}, t, dt = {0, 0, 0.0};
  __ad_autodiff((void *)f, &s, &ds, &t, &dt, argc);
  printf("ds.v = %g (expected 6)\n", ds.v);
  return ds.v == 6.0 ? 0 : 1;
}
