// Regression: an entry point declared to return a struct with an integer field
// where an adjoint belongs was accepted without a diagnostic: the second
// adjoint's bits were stored raw into the `long` (3.0 came back as
// 4613937818241073152) and an `int` field read 0. API.md: a malformed call is
// a diagnostic. (Every all-floating-point struct lowers to floating-point or
// vector-of-floating-point fields on x86-64, so an integer field is never
// right.)
// RUN: not %clang_ad -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

static double f(double x, double y) { return x * y; }

struct dl { double a; long k; };
struct dl __ad_autodiff_dl(void *, ...);
struct di { double a; int k; };
struct di __ad_autodiff_di(void *, ...);

long g(double x, double y) {
  // CHECK-DAG: r_bad_result_struct.c:[[@LINE+1]]:{{[0-9]+}}: error: invalid differentiation call in 'g': {{.*}}return type
  struct dl r = __ad_autodiff_dl((void *)f, x, y);
  return r.k;
}

int h(double x, double y) {
  // CHECK-DAG: r_bad_result_struct.c:[[@LINE+1]]:{{[0-9]+}}: error: invalid differentiation call in 'h': {{.*}}return type
  struct di r = __ad_autodiff_di((void *)f, x, y);
  return r.k;
}
