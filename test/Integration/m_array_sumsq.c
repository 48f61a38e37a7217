// Reverse mode: the gradient of a sum of squares over an array lands in its shadow.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 17

static double sumsq(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

/* Weighted and offset, so the gradient is not simply proportional to x. */
static double wsumsq(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * (x[i] - 0.5) * (x[i] - 0.5);
  return s;
}

int main(void) {
  double x[N], x0[N], dx[N];
  for (int i = 0; i < N; i++) {
    x[i] = x0[i] = ad_test_uniform(-2, 2);
    dx[i] = 0;
  }

  /* Default activity: pointer -> dup, int -> const. */
  __ad_autodiff((void *)sumsq, x, dx, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 2 * x[i], 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(sumsq, x, N, i), 1e-5);
    CHECK_TRUE(x[i] == x0[i]); /* f only reads x */
  }

  /* Adjoints accumulate (+=) into the shadow: a second call doubles it. */
  __ad_autodiff((void *)sumsq, __ad_dup, x, dx, __ad_const, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dx[i], 4 * x[i], 1e-10);

  /* A nonzero starting shadow is kept and added to. */
  for (int i = 0; i < N; i++)
    dx[i] = 1.0 + i;
  __ad_autodiff((void *)wsumsq, x, dx, N);
  for (int i = 0; i < N; i++) {
    double g = 2 * (i + 1) * (x[i] - 0.5);
    CHECK_CLOSE(dx[i], 1.0 + i + g, 1e-10);
    CHECK_CLOSE(dx[i] - (1.0 + i), ad_fd_array(wsumsq, x, N, i), 1e-5);
  }

  /* Only a prefix of the array is active: the rest of the shadow is untouched. */
  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff((void *)sumsq, x, dx, 5);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dx[i], i < 5 ? 2 * x[i] : 0.0, 1e-10);

  return ad_test_finish();
}
