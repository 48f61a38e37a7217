// Reverse mode: f writes y[i] = g(x[i]) and returns void; y's shadow is the seed and is reset.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 15

void __ad_autodiff_void(void *, ...);

static double g(double x) { return x * sin(x) + x * x * x; }
static double dg(double x) { return sin(x) + x * cos(x) + 3 * x * x; }

static void f(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = g(x[i]);
}

/* L(x) = sum_i w_i y_i(x), the scalar whose gradient the seed w selects. */
static double Wt[N];
static double weighted(double *x, int n) {
  double y[N], s = 0;
  f(x, y, n);
  for (int i = 0; i < n; i++)
    s += Wt[i] * y[i];
  return s;
}

int main(void) {
  double x[N], x0[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    x[i] = x0[i] = ad_test_uniform(-2, 2);
    Wt[i] = ad_test_uniform(-1, 1);
    dx[i] = 0;
    y[i] = 1234.5; /* stale contents f overwrites */
    dy[i] = Wt[i]; /* the seed */
  }

  __ad_autodiff_void((void *)f, x, dx, y, dy, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], Wt[i] * dg(x[i]), 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(weighted, x, N, i), 1e-5);
    CHECK_TRUE(dy[i] == 0.0);     /* overwritten: shadow read and reset */
    CHECK_CLOSE(y[i], g(x0[i]), 1e-14); /* primal output, as a plain call */
    CHECK_TRUE(x[i] == x0[i]);
  }

  /* Adjoints accumulate into dx; a zero seed contributes nothing. */
  for (int i = 0; i < N; i++)
    dy[i] = (i % 2) ? 2.0 : 0.0;
  double prev[N];
  for (int i = 0; i < N; i++)
    prev[i] = dx[i];
  __ad_autodiff_void((void *)f, __ad_const, x, __ad_dup, y, dy, N);
  /* x const: dx unchanged, but y's shadow is still consumed. */
  for (int i = 0; i < N; i++) {
    CHECK_TRUE(dx[i] == prev[i]);
    CHECK_TRUE(dy[i] == 0.0);
  }
  for (int i = 0; i < N; i++)
    dy[i] = (i % 2) ? 2.0 : 0.0;
  __ad_autodiff_void((void *)f, x, dx, y, dy, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], prev[i] + ((i % 2) ? 2.0 : 0.0) * dg(x[i]), 1e-10);
    CHECK_TRUE(dy[i] == 0.0);
  }

  /* Writing only part of y leaves the rest of y and its shadow alone. */
  for (int i = 0; i < N; i++) {
    dx[i] = 0;
    dy[i] = 3.0;
    y[i] = -7.0;
  }
  __ad_autodiff_void((void *)f, x, dx, y, dy, 4);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], i < 4 ? 3.0 * dg(x[i]) : 0.0, 1e-10);
    CHECK_TRUE(dy[i] == (i < 4 ? 0.0 : 3.0));
    CHECK_CLOSE(y[i], i < 4 ? g(x[i]) : -7.0, 1e-14);
  }

  return ad_test_finish();
}
