// Reverse mode: memcpy, memmove and memset move and clear active doubles inside f.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <string.h>

#define N 9
#define MAXN 16

void __ad_autodiff_void(void *, ...);

/* t = copy of x, shifted right by one with an overlapping memmove (t_0 = x_0,
 * t_i = x_{i-1}); u zeroed by memset, then u_i = t_i x_i. Returns sum u_i^2. */
static double shifted(double *x, int n) {
  double t[MAXN], u[MAXN], s = 0;
  memcpy(t, x, n * sizeof(double));
  memmove(t + 1, t, (n - 1) * sizeof(double));
  memset(u, 0, sizeof u);
  for (int i = 0; i < n; i++)
    u[i] += t[i] * x[i];
  for (int i = 0; i < n; i++)
    s += u[i] * u[i];
  return s;
}

/* y[0..n) = x by memcpy; y[n..2n) cleared by memset then += x_i^2. */
static void spread(const double *x, double *y, int n) {
  memcpy(y, x, n * sizeof(double));
  memset(y + n, 0, n * sizeof(double));
  for (int i = 0; i < n; i++)
    y[n + i] += x[i] * x[i];
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-1.5, 1.5);

  __ad_autodiff((void *)shifted, x, dx, N);
  /* u_0 = x_0^2, u_i = x_{i-1} x_i */
  double u[N];
  u[0] = x[0] * x[0];
  for (int i = 1; i < N; i++) u[i] = x[i - 1] * x[i];
  for (int j = 0; j < N; j++) {
    double want;
    if (j == 0)
      want = 2 * u[0] * 2 * x[0] + 2 * u[1] * x[1];
    else
      want = 2 * u[j] * x[j - 1] + (j + 1 < N ? 2 * u[j + 1] * x[j + 1] : 0.0);
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(shifted, x, N, j), 1e-5);
  }

  /* Seed the whole output: dx_i = w_i + w_{n+i} 2 x_i, and y's shadow is zeroed. */
  double y[2 * N], dy[2 * N], w[2 * N];
  for (int i = 0; i < 2 * N; i++) {
    y[i] = 99.0;
    dy[i] = w[i] = ad_test_uniform(-1, 1);
  }
  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff_void((void *)spread, x, dx, y, dy, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], w[i] + w[N + i] * 2 * x[i], 1e-10);
    CHECK_TRUE(y[i] == x[i]);
    CHECK_CLOSE(y[N + i], x[i] * x[i], 1e-15);
  }
  for (int i = 0; i < 2 * N; i++)
    CHECK_TRUE(dy[i] == 0.0);

  /* Seed only the memset part: the memcpy'd half contributes nothing. */
  for (int i = 0; i < 2 * N; i++)
    dy[i] = i < N ? 0.0 : 1.0;
  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff_void((void *)spread, x, dx, y, dy, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dx[i], 2 * x[i], 1e-10);

  return ad_test_finish();
}
