// Reverse mode: loops over 1000 doubles that -O3 vectorizes (<N x double>): a reduction, an element-wise update.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"

#define N 1000

/* y = sum_i a x_i^2. The pragma lets the vectorizer reassociate the reduction. */
static double reduce(const double *restrict x, double a, int n) {
  double y = 0;
#pragma clang loop vectorize(enable)
  for (int i = 0; i < n; i++)
    y += a * x[i] * x[i];
  return y;
}

/* y_i <- a x_i y_i + x_i^2, element-wise. */
static void update(const double *restrict x, double *restrict y, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] * y[i] + x[i] * x[i];
}

static double A = 0.75;
static double reduce_x(double *x, int n) { return reduce(x, A, n); }

int main(void) {
  static double x[N], dx[N], y[N], y0[N], dy[N], w[N];
  for (int i = 0; i < N; i++) {
    x[i] = ad_test_uniform(-1, 1);
    dx[i] = 0;
  }

  double da = __ad_autodiff((void *)reduce, x, dx, A, N);
  double ss = 0;
  for (int i = 0; i < N; i++)
    ss += x[i] * x[i];
  CHECK_CLOSE(da, ss, 1e-10);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dx[i], 2 * A * x[i], 1e-10);
  for (int i = 0; i < N; i += 97)
    CHECK_CLOSE(dx[i], ad_fd_array(reduce_x, x, N, i), 1e-5);

  /* update with seed w on the new y: dx_i = w_i (a y_i + 2 x_i), dy_i = w_i a x_i,
   * da = sum_i w_i x_i y_i (old y). */
  double want_a = 0;
  for (int i = 0; i < N; i++) {
    y[i] = y0[i] = ad_test_uniform(-1, 1);
    dy[i] = w[i] = ad_test_uniform(-1, 1);
    dx[i] = 0;
    want_a += w[i] * x[i] * y0[i];
  }
  da = __ad_autodiff((void *)update, x, dx, y, dy, A, N);
  CHECK_CLOSE(da, want_a, 1e-10);
  int bad_x = 0, bad_y = 0, bad_p = 0;
  for (int i = 0; i < N; i++) {
    bad_x += !ad_test_close(dx[i], w[i] * (A * y0[i] + 2 * x[i]), 1e-10, 1e-10);
    bad_y += !ad_test_close(dy[i], w[i] * A * x[i], 1e-10, 1e-10);
    bad_p += !ad_test_close(y[i], A * x[i] * y0[i] + x[i] * x[i], 1e-14, 1e-14);
  }
  CHECK_TRUE(bad_x == 0);
  CHECK_TRUE(bad_y == 0);
  CHECK_TRUE(bad_p == 0);

  /* Odd lengths exercise the vector loop's scalar remainder. */
  for (int n = 1; n <= 9; n += 4) {
    for (int i = 0; i < N; i++)
      dx[i] = 0;
    da = __ad_autodiff((void *)reduce, x, dx, A, n);
    double s = 0;
    for (int i = 0; i < n; i++)
      s += x[i] * x[i];
    CHECK_CLOSE(da, s, 1e-10);
    for (int i = 0; i < n + 1; i++)
      CHECK_CLOSE(dx[i], i < n ? 2 * A * x[i] : 0.0, 1e-10);
  }

  return ad_test_finish();
}
