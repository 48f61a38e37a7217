// Reverse mode: calloc'd accumulators and a buffer grown with realloc, both inside f.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>

#define N 13

/* b = [x_0^2, x_1^2, ...] pushed into a buffer that starts with room for 2 and doubles;
 * acc = calloc'd zeros plus sin(x_i).
 * Returns sum_i b_i acc_i + sum_i b_i b_{n-1-i}. */
static double grow(double *x, int n) {
  int cap = 2, len = 0;
  double *b = malloc(cap * sizeof *b);
  double *acc = calloc(n, sizeof *acc);
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      b = realloc(b, cap * sizeof *b); /* moves active values */
    }
    b[len++] = x[i] * x[i];
  }
  for (int i = 0; i < n; i++)
    acc[i] += sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += b[i] * acc[i] + b[i] * b[n - 1 - i];
  free(acc);
  free(b);
  return s;
}

/* realloc from NULL and shrinking realloc; calloc'd memory read before written. */
static double shrink(double *x, int n) {
  double *v = realloc(NULL, n * sizeof *v);
  double *z = calloc(n, sizeof *z);
  for (int i = 0; i < n; i++)
    v[i] = x[i] * x[i] * x[i] + z[i];
  v = realloc(v, 3 * sizeof *v);
  double s = v[0] * v[1] + v[2];
  free(z);
  free(v);
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-1.5, 1.5);

  __ad_autodiff((void *)grow, x, dx, N);
  for (int j = 0; j < N; j++) {
    double xr = x[N - 1 - j];
    double want = 2 * x[j] * sin(x[j]) + x[j] * x[j] * cos(x[j]) + 4 * x[j] * xr * xr;
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(grow, x, N, j), 1e-5);
  }

  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff((void *)shrink, x, dx, N);
  /* s = x0^3 x1^3 + x2^3 */
  double c0 = x[0] * x[0] * x[0], c1 = x[1] * x[1] * x[1];
  CHECK_CLOSE(dx[0], 3 * x[0] * x[0] * c1, 1e-10);
  CHECK_CLOSE(dx[1], 3 * x[1] * x[1] * c0, 1e-10);
  CHECK_CLOSE(dx[2], 3 * x[2] * x[2], 1e-10);
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(dx[j], ad_fd_array(shrink, x, N, j), 1e-5);
    if (j >= 3)
      CHECK_TRUE(dx[j] == 0.0);
  }

  return ad_test_finish();
}
