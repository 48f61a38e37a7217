// Reverse mode: stack arrays (1-D and 2-D) as active temporaries inside f.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 9
#define MAXN 16

/* log sum exp(x_i), stabilised by the maximum; exponentials kept in a local array. */
static double logsumexp(double *x, int n) {
  double e[MAXN], m = x[0], s = 0;
  for (int i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  for (int i = 0; i < n; i++)
    e[i] = exp(x[i] - m);
  for (int i = 0; i < n; i++)
    s += e[i];
  return m + log(s);
}

/* Prefix sums t_i = x_0 + ... + x_i in a local array; returns sum t_i^2. */
static double prefix(double *x, int n) {
  double t[MAXN], s = 0;
  t[0] = x[0];
  for (int i = 1; i < n; i++)
    t[i] = t[i - 1] + x[i];
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

/* A local 2-D outer product M = x x^T; trace(M M) = (sum x_i^2)^2. */
static double outer(double *x, int n) {
  double M[MAXN][MAXN], s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      M[i][j] = x[i] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += M[i][j] * M[j][i];
  return s;
}

int main(void) {
  double x[N], dx[N];
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-2, 2);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __ad_autodiff((void *)logsumexp, x, dx, N);
  double z = 0;
  for (int i = 0; i < N; i++) z += exp(x[i]);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], exp(x[i]) / z, 1e-10); /* softmax */
    CHECK_CLOSE(dx[i], ad_fd_array(logsumexp, x, N, i), 1e-5);
  }

  for (int i = 0; i < N; i++) dx[i] = 0;
  __ad_autodiff((void *)prefix, x, dx, N);
  double t[N];
  t[0] = x[0];
  for (int i = 1; i < N; i++) t[i] = t[i - 1] + x[i];
  for (int j = 0; j < N; j++) {
    double want = 0;
    for (int i = j; i < N; i++) want += 2 * t[i];
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(prefix, x, N, j), 1e-5);
  }

  for (int i = 0; i < N; i++) dx[i] = 0;
  __ad_autodiff((void *)outer, x, dx, N);
  double ss = 0;
  for (int i = 0; i < N; i++) ss += x[i] * x[i];
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 4 * x[i] * ss, 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(outer, x, N, i), 1e-5);
  }
  CHECK_CLOSE(outer(x, N), ss * ss, 1e-12);

  return ad_test_finish();
}
