// Reverse mode: f overwrites its input array in place; the shadow is seed in, gradient out.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 10

void __ad_autodiff_void(void *, ...);

/* derivative of u(x) = x^2 + sin(x) */
static double du(double x) { return 2 * x + cos(x); }

/* x[i] <- u(x[i]) (inline), then a recurrence on the updated values: x[i] += 0.5 x[i-1]. */
static void step(double *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = x[i] * x[i] + sin(x[i]);
  for (int i = 1; i < n; i++)
    x[i] += 0.5 * x[i - 1];
}

/* Writes x[1] and returns a value that reads the new x[1]. */
static double h(double *x) {
  x[1] = x[0] * x[1];
  return x[1] * x[2];
}

static double Wt[N];
static double weighted(double *x, int n) {
  double t[N], s = 0;
  for (int i = 0; i < n; i++)
    t[i] = x[i];
  step(t, n);
  for (int i = 0; i < n; i++)
    s += Wt[i] * t[i];
  return s;
}

int main(void) {
  double x[N], x0[N], dx[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = x0[i] = y[i] = ad_test_uniform(-1.5, 1.5);
    Wt[i] = ad_test_uniform(-1, 1);
    dx[i] = Wt[i]; /* seed on the final contents of x */
  }
  step(y, N); /* what a plain call leaves */

  __ad_autodiff_void((void *)step, x, dx, N);
  /* y_i = sum_{j<=i} 0.5^(i-j) u(x_j)  =>  dL/dx_j = u'(x_j) sum_{i>=j} w_i 0.5^(i-j). */
  for (int j = 0; j < N; j++) {
    double acc = 0, p = 1;
    for (int i = j; i < N; i++, p *= 0.5)
      acc += Wt[i] * p;
    CHECK_CLOSE(dx[j], du(x0[j]) * acc, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(weighted, x0, N, j), 1e-5);
    CHECK_CLOSE(x[j], y[j], 1e-14);
  }

  /* Return value and memory are both outputs. Unwritten x[0], x[2] accumulate onto
   * their shadows; the overwritten x[1] has its seed consumed. */
  double a[3] = {0.7, -1.3, 2.1}, da[3] = {0.25, 0.5, -0.75};
  double s = 0.5, a0 = a[0], a1 = a[1], a2 = a[2];
  __ad_autodiff((void *)h, a, da);
  CHECK_CLOSE(da[0], 0.25 + a1 * (a2 + s), 1e-10);
  CHECK_CLOSE(da[1], a0 * (a2 + s), 1e-10);
  CHECK_CLOSE(da[2], -0.75 + a0 * a1, 1e-10);
  CHECK_CLOSE(a[0], a0, 0);
  CHECK_CLOSE(a[1], a0 * a1, 1e-15);
  CHECK_CLOSE(a[2], a2, 0);

  /* With a zero seed only the return value drives the gradient. */
  double b[3] = {1.1, 0.9, -0.4}, db[3] = {0, 0, 0};
  __ad_autodiff((void *)h, b, db);
  CHECK_CLOSE(db[0], 0.9 * -0.4, 1e-10);
  CHECK_CLOSE(db[1], 1.1 * -0.4, 1e-10);
  CHECK_CLOSE(db[2], 1.1 * 0.9, 1e-10);

  return ad_test_finish();
}
