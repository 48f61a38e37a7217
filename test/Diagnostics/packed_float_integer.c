// A small struct of a float and an int, passed by value: the x86-64 ABI
// passes it as one i64, whose low half is the float's bits. Nothing can
// follow a derivative through integer arithmetic on packed bits, so it is
// an error at -O0: the canonical primal's SROA packs the i64 with zext/shl
// of the float's bits (without it, the i64 load of the struct would be the
// error: "floating-point data is loaded as part of a wider integer"). At
// -O2 the call is inlined and there is nothing to report.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: %clang_ad -O2 -c %s -o /dev/null
#include <ad.h>

typedef struct { float v; int n; } FI;

static FI twice(FI a) {
  FI r = {a.v * 2, a.n};
  return r;
}

static float f(float *x) {
  FI a = {x[0], 3};
  // CHECK: {{.*}}packed_float_integer.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': the bits of a differentiated floating-point value are computed on as an integer ('zext')
  FI b = twice(a);
  return b.v * (float)b.n;
}

void grad(float *x, float *dx) { __ad_autodiff((void *)f, x, dx); }
// CHECK: 1 error generated.
