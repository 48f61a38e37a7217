// Works (keep it working): a running extreme kept by fmax or fmin (libm's
// calls, the intrinsic, CUDA's __nv_fmaxf), m = fmax(m, x), is the same
// chain as a compare and a select (primal/SelectReductions.cpp), so its
// reverse sweep needs one byte per iteration (which operand was kept)
// instead of both values, and where x is a load the chain is read back
// after the loop: no tape at all. A log-sum-exp stabilized by its maximum,
// the smallest of a float array with the running value second and a tie
// (the first of the equal elements gets the adjoint, as fmax keeps the
// running value), and the largest of computed squares. Each gradient
// against its closed form, at -O0 and -O2 under valgrind.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: remark: derivatives of 'logsumexp' read 1 running extreme(s)
// CHECK-DAG: remark: derivatives of 'smallest' read 1 running extreme(s)
// CHECK-DAG: remark: gradient of 'largest_square' caches 0 bytes per call, 1 bytes per iteration of the loop at line {{[0-9]+}};
#include "ad_test.h"
#include <ad.h>
#include <math.h>
#define N 7

/* log(sum exp(x)), stabilized by the running maximum (fmax). */
double logsumexp(const double *x, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++)
    m = fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return m + log(s);
}

/* The smallest element, fminf with the running value second. */
float smallest(const float *x, int n) {
  float m = INFINITY;
  for (int i = 0; i < n; i++)
    m = fminf(x[i], m);
  return m;
}

/* The largest square: the chosen value is computed, not loaded. */
double largest_square(const double *x, int n) {
  double m = 0;
  for (int i = 0; i < n; i++)
    m = fmax(m, x[i] * x[i]);
  return m;
}

int main(void) {
  double x[N] = {0.3, -1.2, 2.5, 0.7, 2.5, -3.0, 1.1}, dx[N] = {0};
  __ad_autodiff((void *)logsumexp, x, dx, __ad_const, N);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += exp(x[i]);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dx[i], exp(x[i]) / s, 1e-12);
  /* Ties: fmax keeps the running value, so the first of the two
   * smallest elements (x[1] and x[4]) gets the whole adjoint. */
  float y[N] = {0.5f, -2.0f, 3.0f, 1.0f, -2.0f, 0.0f, 4.0f}, dy[N] = {0};
  __ad_autodiff((void *)smallest, y, dy, __ad_const, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dy[i], i == 1 ? 1.0 : 0.0, 0);
  double z[N] = {0.3, -1.2, 2.0, 0.7, -2.5, 1.0, 1.1}, dz[N] = {0};
  __ad_autodiff((void *)largest_square, z, dz, __ad_const, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dz[i], i == 4 ? 2 * z[4] : 0.0, 1e-12);
  return ad_test_finish();
}
