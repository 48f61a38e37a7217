// Reverse mode: one helper called many times in f, with const, dup and aliased pointer arguments.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 7

/* q(u, v) = sum_i u_i v_i^2 */
static __attribute__((noinline)) double q(const double *u, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += u[i] * v[i] * v[i];
  return s;
}

/* c is inactive, so q sees (inactive, active), (active, active), the same active
 * array twice, (inactive, inactive), and shifted views in a loop. */
static double f(const double *a, const double *b, const double *c, int n) {
  double s = q(c, a, n) + q(a, b, n) + q(b, b, n) + q(c, c, n);
  for (int k = 1; k <= 2; k++)
    s += q(c + k, a, n - k);
  return s;
}

static double A[N], B[N], C[N];
static double f_a(double *a, int n) { return f(a, B, C, n); }
static double f_b(double *b, int n) { return f(A, b, C, n); }

int main(void) {
  double da[N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++) {
    A[i] = ad_test_uniform(-1, 1);
    B[i] = ad_test_uniform(-1, 1);
    C[i] = ad_test_uniform(-1, 1);
  }

  __ad_autodiff((void *)f, A, da, B, db, __ad_const, C, N);

  for (int i = 0; i < N; i++) {
    double wa = 2 * C[i] * A[i] + B[i] * B[i];
    for (int k = 1; k <= 2; k++)
      if (i < N - k)
        wa += 2 * C[i + k] * A[i];
    double wb = 2 * A[i] * B[i] + 3 * B[i] * B[i];
    CHECK_CLOSE(da[i], wa, 1e-10);
    CHECK_CLOSE(db[i], wb, 1e-10);
    CHECK_CLOSE(da[i], ad_fd_array(f_a, A, N, i), 1e-5);
    CHECK_CLOSE(db[i], ad_fd_array(f_b, B, N, i), 1e-5);
  }

  /* The helper itself, called directly with each activity pattern. */
  double du[N] = {0}, dv[N] = {0};
  __ad_autodiff((void *)q, __ad_const, C, A, dv, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dv[i], 2 * C[i] * A[i], 1e-10);
    dv[i] = 0;
  }
  __ad_autodiff((void *)q, A, du, __ad_const, B, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(du[i], B[i] * B[i], 1e-10);
    du[i] = 0;
  }
  __ad_autodiff((void *)q, A, du, B, dv, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(du[i], B[i] * B[i], 1e-10);
    CHECK_CLOSE(dv[i], 2 * A[i] * B[i], 1e-10);
  }

  return ad_test_finish();
}
