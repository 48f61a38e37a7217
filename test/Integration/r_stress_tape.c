// Works (keep it working): sizes that stress the tape -- a loop of 1e6
// iterations (tape grows, is freed: valgrind checks leaks), an array loop of
// 3e5 iterations, recursion 10000 deep (scalar) and mutual recursion through
// pointers, and 1000 gradients in a row (no leak, no state carried over).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
/* mutual recursion through pointers */
static double odd_sum(const double *x, int n);
static double even_sum(const double *x, int n) {
  if (n <= 0) return 1.0;
  return x[0] * x[0] + odd_sum(x + 1, n - 1) * 0.5;
}
static double odd_sum(const double *x, int n) {
  if (n <= 0) return 0.0;
  return sin(x[0]) * even_sum(x + 1, n - 1);
}
/* deep recursion */
static double deep(double x, int d) { return d == 0 ? x : sin(deep(x, d - 1)) * 0.5 + x * 0.001; }
/* long loop: tape must hold 1e6 iterations */
static double longloop(double x, int n) {
  double s = x;
  for (int i = 0; i < n; i++) s = s * 0.999999 + sin(s) * 1e-6 + x * 1e-7;
  return s;
}
static double arrloop(double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double t = a[i % 7]; s += t * t * 1e-6; if (s > 1e9) break; }
  return s;
}
static double rec_fd(double *x, int n) { return even_sum(x, n); }
static double deep_fd(double x) { return deep(x, 10000); }
static double long_fd(double x) { return longloop(x, 1000000); }
int main(void) {
  double x[9], dx[9] = {0};
  for (int i = 0; i < 9; i++) x[i] = ad_test_uniform(-1, 1);
  __ad_autodiff((void *)even_sum, x, dx, 9);
  for (int i = 0; i < 9; i++) CHECK_CLOSE(dx[i], ad_fd_array(rec_fd, x, 9, i), 1e-6);
  double d = __ad_autodiff((void *)deep, 0.3, 10000);
  CHECK_CLOSE(d, ad_fd1(deep_fd, 0.3), 1e-6);
  CHECK_CLOSE(__ad_fwddiff((void *)deep, 0.3, 1.0, 10000), d, 1e-12);
  double dl = __ad_autodiff((void *)longloop, 0.4, 1000000);
  /* FD step 1e-4: rounding noise of 1e6 steps swamps a 1e-6 step */
  CHECK_CLOSE(dl, (long_fd(0.4 + 1e-4) - long_fd(0.4 - 1e-4)) / 2e-4, 1e-6);
  CHECK_CLOSE(__ad_fwddiff((void *)longloop, 0.4, 1.0, 1000000), dl, 1e-10);
  double a[7] = {1, 2, 3, 4, 5, 6, 7}, da[7] = {0};
  __ad_autodiff((void *)arrloop, a, da, 300000);
  for (int i = 0; i < 7; i++) {
    int cnt = 300000 / 7 + (i < 300000 % 7);
    CHECK_CLOSE(da[i], 2 * a[i] * 1e-6 * cnt, 1e-10);
  }
  /* gradient in a loop (leak check) */
  double acc = 0;
  for (int it = 0; it < 1000; it++) {
    double g[9] = {0};
    x[it % 9] += 1e-4;
    __ad_autodiff((void *)even_sum, x, g, 9);
    acc += g[0];
    acc += __ad_autodiff((void *)deep, 0.3 + it * 1e-4, 50);
  }
  CHECK_TRUE(isfinite(acc));
  return ad_test_finish();
}
