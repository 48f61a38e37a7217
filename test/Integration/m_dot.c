// Reverse mode: dot product of two duplicated arrays, including both arguments aliased.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 23

static double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* A nonlinear variant: sum a_i * sin(b_i) + a_i^2 b_i. */
static double dot2(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * sin(b[i]) + a[i] * a[i] * b[i];
  return s;
}

static double B[N], A[N];
static double dot2_a(double *a, int n) { return dot2(a, B, n); }
static double dot2_b(double *b, int n) { return dot2(A, b, n); }
static double dot_self(double *x, int n) { return dot(x, x, n); }

int main(void) {
  double da[N], db[N];
  for (int i = 0; i < N; i++) {
    A[i] = ad_test_uniform(-1, 1);
    B[i] = ad_test_uniform(-3, 3);
    da[i] = db[i] = 0;
  }

  __ad_autodiff((void *)dot, A, da, B, db, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(da[i], B[i], 1e-10);
    CHECK_CLOSE(db[i], A[i], 1e-10);
  }

  for (int i = 0; i < N; i++)
    da[i] = db[i] = 0;
  __ad_autodiff((void *)dot2, __ad_dup, A, da, __ad_dup, B, db, __ad_const, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(da[i], sin(B[i]) + 2 * A[i] * B[i], 1e-10);
    CHECK_CLOSE(db[i], A[i] * cos(B[i]) + A[i] * A[i], 1e-10);
    CHECK_CLOSE(da[i], ad_fd_array(dot2_a, A, N, i), 1e-5);
    CHECK_CLOSE(db[i], ad_fd_array(dot2_b, B, N, i), 1e-5);
  }

  /* Both parameters are the same memory with the same shadow: contributions add. */
  double dx[N] = {0};
  __ad_autodiff((void *)dot, A, dx, A, dx, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 2 * A[i], 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(dot_self, A, N, i), 1e-5);
  }

  /* Overlapping views of one array: a[i] = x[i], b[i] = x[i+1]. */
  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff((void *)dot, A, dx, A + 1, dx + 1, N - 1);
  for (int i = 0; i < N; i++) {
    double g = (i + 1 < N ? A[i + 1] : 0) + (i > 0 ? A[i - 1] : 0);
    CHECK_CLOSE(dx[i], g, 1e-10);
  }

  return ad_test_finish();
}
