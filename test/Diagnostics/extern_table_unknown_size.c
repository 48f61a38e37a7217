// A table declared in another file with no size (extern const double t[])
// cannot be given a shadow of its size: taking its address where a shadow is
// needed is an error naming the pointer, not a crash. (A table of known size,
// or a C++ vtable, gets an all-zero shadow: test/IR/external_constant_shadow.ll.)
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

extern const double weights[];
struct view {
  const double *w;
  double *x;
};

__attribute__((noinline)) static double dot(const struct view *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v->w[i] * v->x[i];
  return s;
}
double f(double *x, int n) {
  // CHECK: {{.*}}extern_table_unknown_size.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f': pointer global 'weights' may point to differentiated memory but has no shadow
  struct view v = {weights, x};
  return dot(&v, n);
}
double g(double *x, double *dx) { return __ad_autodiff((void *)f, x, dx, 3); }
// CHECK: 1 error generated.
