// Works (keep it working): loops with unknown trip counts that call helpers
// and exit early (break, return, goto out of a nested loop): Newton iteration
// with a convergence test, a while loop with two data-dependent exits, and
// nested loops over a 2-D array (double (*)[C]) with data-dependent breaks.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
static double step(double x, double a) { return x - 0.5 * (x * x - a) / x; }
static double damp(double v, int k) { return v * exp(-0.01 * k); }
/* Newton sqrt with a data-dependent stopping test and early exit */
static double newton(double a) {
  double x = a > 1 ? a : 1;
  for (int k = 0; k < 100; k++) {
    double nx = step(x, a);
    if (fabs(nx - x) < 1e-15 * nx) { x = nx; break; }
    x = nx;
  }
  return x;
}
/* while loop with unknown trip count and calls */
static double accum(const double *v, int n, double thresh) {
  double s = 0; int i = 0;
  while (i < n) {
    double t = damp(v[i], i);
    if (t > thresh) return s + t * t;   /* early return */
    if (t < -thresh) break;
    s += sin(t) * t;
    i++;
  }
  return s * 2;
}
/* 2D nested with data-dependent break */
#define R 5
#define C 7
static double grid(double (*g)[C], int rows) {
  double s = 0;
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < C; j++) {
      if (g[i][j] < -0.8) break;
      s += g[i][j] * g[i][j] * (i + 1);
      if (s > 50) goto done;
    }
  }
done:
  return s;
}
static double accum_fd(double *v, int n) { return accum(v, n, 0.9); }
static double grid_fd(double *v, int n) { (void)n; return grid((double (*)[C])v, R); }
int main(void) {
  for (double a = 0.3; a < 20; a *= 2.3) {
    CHECK_CLOSE(__ad_autodiff((void *)newton, a), 0.5 / sqrt(a), 1e-9);
    CHECK_CLOSE(__ad_fwddiff((void *)newton, a, 1.0), 0.5 / sqrt(a), 1e-9);
  }
  for (int trial = 0; trial < 10; trial++) {
    int n = 20;
    double v[20], dv[20] = {0};
    for (int i = 0; i < n; i++) v[i] = ad_test_uniform(-1, 1);
    __ad_autodiff((void *)accum, v, dv, n, 0.9);
    for (int i = 0; i < n; i++) CHECK_CLOSE(dv[i], ad_fd_array(accum_fd, v, n, i), 1e-5);
  }
  for (int trial = 0; trial < 10; trial++) {
    double g[R][C], dg[R][C] = {{0}};
    for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) g[i][j] = ad_test_uniform(-1, 2);
    __ad_autodiff((void *)grid, g, dg, R);
    for (int i = 0; i < R * C; i++) CHECK_CLOSE((&dg[0][0])[i], ad_fd_array(grid_fd, &g[0][0], R * C, i), 1e-5);
  }
  return ad_test_finish();
}
