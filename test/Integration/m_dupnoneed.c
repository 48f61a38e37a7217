// Reverse mode: __ad_dupnoneed on a scratch buffer and on an output buffer.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 10

void __ad_autodiff_void(void *, ...);

/* work is scratch: work_i = x_i^2, then returns sum_i work_i sin(x_i). */
static double scratch(const double *x, double *work, int n) {
  for (int i = 0; i < n; i++)
    work[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += work[i] * sin(x[i]);
  return s;
}

/* y_i = exp(x_i) x_{(i+1) mod n} */
static void out(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = exp(x[i]) * x[(i + 1) % n];
}

static double Wt[N];
static double scratch_x(double *x, int n) {
  double work[N];
  return scratch(x, work, n);
}
static double out_x(double *x, int n) {
  double y[N], s = 0;
  out(x, y, n);
  for (int i = 0; i < n; i++)
    s += Wt[i] * y[i];
  return s;
}

int main(void) {
  double x[N], x0[N], dx[N] = {0}, work[N], dwork[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = x0[i] = ad_test_uniform(-1.5, 1.5);
    work[i] = 0;
  }

  __ad_autodiff((void *)scratch, x, dx, __ad_dupnoneed, work, dwork, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]), 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(scratch_x, x, N, i), 1e-5);
    CHECK_TRUE(dwork[i] == 0.0); /* overwritten: shadow read (0) and reset */
    CHECK_TRUE(x[i] == x0[i]);   /* inputs are still needed and intact */
  }

  /* Output buffer not needed: only the derivative through the seed is. */
  double y[N], dy[N];
  for (int i = 0; i < N; i++) {
    dx[i] = 0;
    y[i] = 0;
    dy[i] = Wt[i] = ad_test_uniform(-1, 1);
  }
  __ad_autodiff_void((void *)out, __ad_dup, x, dx, __ad_dupnoneed, y, dy, N);
  for (int j = 0; j < N; j++) {
    int jm = (j + N - 1) % N;
    double want = Wt[j] * exp(x[j]) * x[(j + 1) % N] + Wt[jm] * exp(x[jm]);
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(out_x, x, N, j), 1e-5);
    CHECK_TRUE(dy[j] == 0.0);
    CHECK_TRUE(x[j] == x0[j]);
  }

  /* Same seed through __ad_dup gives the same gradient (and the primal y). */
  double dx2[N] = {0};
  for (int i = 0; i < N; i++)
    dy[i] = Wt[i];
  __ad_autodiff_void((void *)out, x, dx2, y, dy, N);
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(dx2[j], dx[j], 1e-14);
    CHECK_CLOSE(y[j], exp(x[j]) * x[(j + 1) % N], 1e-14);
  }

  return ad_test_finish();
}
