// Reverse mode: one array marked __ad_const, the other duplicated; primal effects happen once.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 12

/* calls counts invocations; it is an int pointer, so it must be marked const. */
static double f(int *calls, const double *w, const double *x, int n) {
  (*calls)++;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * sin(x[i]) + w[i] * w[i] * x[i];
  return s;
}

static int counter;
static double W[N], X[N];
static double f_x(double *x, int n) { return f(&counter, W, x, n); }
static double f_w(double *w, int n) { return f(&counter, w, X, n); }

int main(void) {
  double dx[N], dw[N];
  for (int i = 0; i < N; i++) {
    W[i] = ad_test_uniform(-2, 2);
    X[i] = ad_test_uniform(-2, 2);
    dx[i] = dw[i] = 0;
  }

  /* w const, x dup: only x's shadow receives a gradient. */
  counter = 0;
  __ad_autodiff((void *)f, __ad_const, &counter, __ad_const, W, X, dx, N);
  CHECK_TRUE(counter == 1);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], W[i] * cos(X[i]) + W[i] * W[i], 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(f_x, X, N, i), 1e-5);
  }

  /* Roles swapped: w dup, x const. dx must not change. */
  double dx_before[N];
  for (int i = 0; i < N; i++)
    dx_before[i] = dx[i];
  counter = 10;
  __ad_autodiff((void *)f, __ad_const, &counter, __ad_dup, W, dw, __ad_const, X, N);
  CHECK_TRUE(counter == 11);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dw[i], sin(X[i]) + 2 * W[i] * X[i], 1e-10);
    CHECK_CLOSE(dw[i], ad_fd_array(f_w, W, N, i), 1e-5);
    CHECK_TRUE(dx[i] == dx_before[i]);
  }

  /* The same array passed as both: const for w, dup for x; only the x role counts. */
  double dy[N] = {0};
  counter = 0;
  __ad_autodiff((void *)f, __ad_const, &counter, __ad_const, X, X, dy, N);
  CHECK_TRUE(counter == 1);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dy[i], X[i] * cos(X[i]) + X[i] * X[i], 1e-10);

  return ad_test_finish();
}
