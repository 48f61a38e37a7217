// Reverse mode: heap temporaries malloc'd and freed inside f carry active values.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>

#define N 11

/* t_i = x_i^2, u_i = t_i t_{i+1 mod n}; returns sum u_i. */
static double ring(double *x, int n) {
  double *t = malloc(n * sizeof *t);
  double *u = malloc(n * sizeof *u);
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    u[i] = t[i] * t[(i + 1) % n];
  free(t); /* freed before the last use of u */
  double s = 0;
  for (int i = 0; i < n; i++)
    s += u[i];
  free(u);
  return s;
}

/* A helper that returns freshly allocated memory holding sin(x_i). */
static double *sines(const double *x, int n) {
  double *s = malloc(n * sizeof *s);
  for (int i = 0; i < n; i++)
    s[i] = sin(x[i]);
  return s;
}

/* A buffer reused for two phases; the first phase's values are overwritten. */
static double phases(double *x, int n) {
  double *s = sines(x, n);
  double *buf = malloc(n * sizeof *buf), r = 0;
  for (int i = 0; i < n; i++)
    buf[i] = s[i] * x[i];
  for (int i = 0; i < n; i++)
    r += buf[i];
  for (int i = 0; i < n; i++)
    buf[i] = exp(s[i]);
  for (int i = 0; i < n; i++)
    r += buf[i] * x[i];
  free(s);
  free(buf);
  return r;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-1.5, 1.5);

  __ad_autodiff((void *)ring, x, dx, N);
  for (int j = 0; j < N; j++) {
    double xp = x[(j + 1) % N], xm = x[(j + N - 1) % N];
    CHECK_CLOSE(dx[j], 2 * x[j] * (xp * xp + xm * xm), 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(ring, x, N, j), 1e-5);
  }

  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff((void *)phases, x, dx, N);
  /* r = sum x sin x + x exp(sin x) */
  for (int j = 0; j < N; j++) {
    double s = sin(x[j]), c = cos(x[j]);
    double want = s + x[j] * c + exp(s) + x[j] * exp(s) * c;
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(phases, x, N, j), 1e-5);
  }

  /* Many calls: every temporary (primal and shadow) must be freed, valgrind checks. */
  for (int rep = 0; rep < 50; rep++)
    __ad_autodiff((void *)ring, x, dx, N);
  CHECK_TRUE(isfinite(dx[0]));

  return ad_test_finish();
}
