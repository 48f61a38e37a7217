// Regression: the loop vectorizer turns max/min loops (fmax/fmaxf/fmin) into
// llvm.vector.reduce.fmax / .fmin at -O2/-O3 (no fast-math needed), and product
// loops into llvm.vector.reduce.fmul under -ffast-math. The plugin had no rule
// for them: "call to 'llvm.vector.reduce.fmax.v2f64', which has no body and no
// derivative rule" -- so e.g. a numerically stable logsumexp / softmax failed
// to compile at -O2. (llvm.vector.reduce.fadd is already handled.)
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
// RUN: %clang_ad -O3 -ffast-math %s -o %t.fm -lm && %run %t.fm
#include <ad.h>
#include "ad_test.h"

#define N 37

static double vmax(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = fmax(m, x[i]);
  return m;
}
static double vmin_sq(const double *x, int n) {
  double m = x[0] * x[0];
  for (int i = 1; i < n; i++) m = fmin(m, x[i] * x[i]);
  return m;
}
/* log(sum exp x_i), stabilised by the max: the gradient is softmax(x) */
static float logsumexp(const float *x, int n) {
  float m = x[0];
  for (int i = 1; i < n; i++) m = fmaxf(m, x[i]);
  float s = 0;
  for (int i = 0; i < n; i++) s += expf(x[i] - m);
  return logf(s) + m;
}
/* product: vector.reduce.fmul under -ffast-math */
static double prod(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}
/* central difference of logsumexp in x_i with a step far above float's ulp */
static double lse_fd(const float *x, int n, int i) {
  float xp[N], xm[N], h = 1e-2f;
  for (int j = 0; j < n; j++) xp[j] = xm[j] = x[j];
  xp[i] += h;
  xm[i] -= h;
  return ((double)logsumexp(xp, n) - (double)logsumexp(xm, n)) / (2.0 * h);
}

int main(void) {
  double x[N], dx[N];
  int imax = 0, imin = 0;
  for (int i = 0; i < N; i++) {
    x[i] = ad_test_uniform(-2, 2);
    if (x[i] > x[imax]) imax = i;
    if (x[i] * x[i] < x[imin] * x[imin]) imin = i;
  }
  for (int i = 0; i < N; i++) dx[i] = 0;
  __ad_autodiff((void *)vmax, x, dx, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], i == imax ? 1.0 : 0.0, 1e-15);
  for (int i = 0; i < N; i++) dx[i] = 0;
  __ad_autodiff((void *)vmin_sq, x, dx, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], i == imin ? 2 * x[imin] : 0.0, 1e-15);

  /* forward: tangent of the max is the tangent of the winner */
  double t[N];
  for (int i = 0; i < N; i++) t[i] = i + 1;
  CHECK_CLOSE(__ad_fwddiff((void *)vmax, x, t, N), imax + 1, 1e-15);

  float xf[N], df[N] = {0};
  double S = 0, xd[N];
  for (int i = 0; i < N; i++) { xf[i] = (float)x[i]; xd[i] = xf[i]; S += exp(xd[i]); }
  __ad_autodiff((void *)logsumexp, xf, df, N);
  double tot = 0;
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(df[i], exp(xd[i]) / S, 1e-5);
    CHECK_CLOSE(df[i], lse_fd(xf, N, i), 1e-3);
    tot += df[i];
  }
  CHECK_CLOSE(tot, 1.0, 1e-5);

  double p[16], dp[16] = {0}, P = 1;
  for (int i = 0; i < 16; i++) { p[i] = ad_test_uniform(0.5, 1.5); P *= p[i]; }
  __ad_autodiff((void *)prod, p, dp, 16);
  for (int i = 0; i < 16; i++) CHECK_CLOSE(dp[i], P / p[i], 1e-10);
  return ad_test_finish();
}
