// Data that is not differentiated, read inside a parallel region, in both
// modes: an __ad_const pointer argument, and a mutable global array filled
// before the call. Only g is active: the gradient is 2 x_i g_i (1 + X_i).
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 64

static double X[N];

static double f(double *g, const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++)
    s += x[i] * g[i] * g[i] * (1 + X[i]);
  return s;
}

int main(void) {
  double g[N], dg[N] = {0}, x[N], v[N];
  omp_check_team_size();
  omp_fill(g, N, -1, 1);
  omp_fill(x, N, -1, 1);
  omp_fill(X, N, -1, 1);
  omp_fill(v, N, -1, 1);
  __ad_autodiff_void((void *)f, g, dg, __ad_const, x);
  for (int i = 0; i < N; i++)
    omp_check_close("gradient", i, dg[i], 2 * x[i] * g[i] * (1 + X[i]), 1e-12);
  double t = __ad_fwddiff((void *)f, g, v, __ad_const, x);
  omp_check_close("forward vs reverse", 0, t, omp_dot(v, dg, N), 1e-10);
  return ad_test_finish();
}
