// Works (keep it working): memory allocated in a function that is not
// inlined (LULESH's Allocate<T>, any -O0 program) gets a shadow like
// malloc's: the wrapper's derivative returns the shadow of what it
// allocates. Before, storing a differentiated value into it was an error
// ("a differentiated value is stored to memory that has no shadow"). A
// wrapper of a wrapper, and one that picks calloc or malloc, are wrappers
// too. Both modes, against closed forms, at -O0 and -O2 under valgrind.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include <stdlib.h>
#include "ad_test.h"

#define N 4

__attribute__((noinline)) static double *new_field(int n) {
  return malloc(sizeof(double) * n);
}

__attribute__((noinline)) static double *new_zeroed(int n, int zero) {
  double *p = zero ? calloc(n, sizeof(double)) : new_field(n);
  return p;
}

/* s = sum_i (x_i^2) * x_i + (2 x_i) * x_i, through two scratch fields. */
double f(const double *x, int n) {
  double *t = new_field(n);
  double *u = new_zeroed(n, n % 2);
  for (int i = 0; i < n; i++) {
    t[i] = x[i] * x[i];
    u[i] = 2.0 * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i] + u[i] * x[i];
  free(t);
  free(u);
  return s;
}

void __ad_autodiff_void(void *, ...);

int main(void) {
  double x[N] = {0.5, -1.5, 2.0, 0.25}, dx[N] = {0};
  __ad_autodiff_void((void *)f, x, dx, __ad_const, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dx[i], 3 * x[i] * x[i] + 4 * x[i], 1e-14);
  for (int k = 0; k < N; k++) {
    double v[N] = {0};
    v[k] = 1.0;
    double t = __ad_fwddiff((void *)f, x, v, __ad_const, N);
    CHECK_CLOSE(t, 3 * x[k] * x[k] + 4 * x[k], 1e-14);
  }
  return ad_test_failures;
}
