// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks do-while, break on a data condition, continue, and return from inside a loop.
#include <ad.h>
#include "ad_test.h"

#define TOL_EXACT 1e-10
#define TOL_FD 1e-5
/* AD derivative vs the closed form and vs a central finite difference. */
#define CHECK_DERIV(ad, exact, fd)                                             \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), TOL_EXACT);                                     \
    CHECK_CLOSE((ad), (fd), TOL_FD);                                           \
  } while (0)

/* Body runs at least once even for n <= 1: s = x^n + sum_{i<n} i x^(n-1-i). */
static double dowhile(double x, int n) {
  int i = 0;
  double s = 1.0;
  do {
    s = s * x + i;
    i++;
  } while (i < n);
  return s;
}
/* Powers of x > 1 until one exceeds 100: s = x + ... + x^(m-1), p = x^m. */
static double brk(double x) {
  double p = 1.0, s = 0.0;
  for (int i = 0; i < 50; i++) {
    p *= x;
    if (p > 100.0)
      break;
    s += p;
  }
  return s + p;
}
/* Skip even i: sum of y * x^i over odd i < n. */
static double cont(double x, double y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0)
      continue;
    s += y * pow(x, i);
  }
  return s;
}
/* Return as soon as x*T_k exceeds y (T_k = 1+...+k); -x*T_20 if never. */
static double early(double x, double y) {
  double s = 0.0;
  for (int i = 1; i <= 20; i++) {
    s += x * i;
    if (s > y)
      return s * y;
  }
  return -s;
}

static int cur_n;
static double dowhile_n(double x) { return dowhile(x, cur_n); }
static double cont_arr(double *p, int n) { return cont(p[0], p[1], n); }
static double early_arr(double *p, int n) { (void)n; return early(p[0], p[1]); }

int main(void) {
  static const double xs[] = {1.3, 1.7, 2.2, 3.1, 5.5};
  static const int ns[] = {0, 1, 4, 7, 9};
  static const double ep[][2] = {{0.7, 5.0}, {0.3, 100.0}, {1.1, 20.0}, {2.5, 1.0}, {0.05, 3.0}};
  for (int k = 0; k < 5; k++) {
    double x = xs[k];
    int n = cur_n = ns[k], nn = n < 1 ? 1 : n;
    double ed = nn * pow(x, nn - 1);
    for (int i = 1; i < nn - 1; i++)
      ed += i * (nn - 1.0 - i) * pow(x, nn - 2 - i);
    CHECK_DERIV(__ad_autodiff((void *)dowhile, x, n), ed, ad_fd1(dowhile_n, x));
    CHECK_DERIV(__ad_fwddiff((void *)dowhile, x, 1.0, n), ed, ad_fd1(dowhile_n, x));

    int m = 1;
    while (pow(x, m) <= 100.0)
      m++;
    double eb = m * pow(x, m - 1);
    for (int j = 1; j < m; j++)
      eb += j * pow(x, j - 1);
    CHECK_DERIV(__ad_autodiff((void *)brk, x), eb, ad_fd1(brk, x));
    CHECK_DERIV(__ad_fwddiff((void *)brk, x, 1.0), eb, ad_fd1(brk, x));

    double y = 0.5 + k, p[2] = {x / 2, y}, ecx = 0.0, ecy = 0.0;
    for (int i = 1; i < 2 * n; i += 2) {
      ecx += y * i * pow(x / 2, i - 1);
      ecy += pow(x / 2, i);
    }
    CHECK_DERIV(__ad_autodiff((void *)cont, x / 2, __ad_const, y, 2 * n), ecx,
                ad_fd_array(cont_arr, p, 2 * n, 0));
    CHECK_DERIV(__ad_autodiff((void *)cont, __ad_const, x / 2, y, 2 * n), ecy,
                ad_fd_array(cont_arr, p, 2 * n, 1));

    double ex = ep[k][0], ey = ep[k][1], q[2] = {ex, ey}, T = 0.0, gx = -210.0, gy = 0.0;
    for (int i = 1; i <= 20; i++) {
      T += i;
      if (ex * T > ey) {
        gx = T * ey;
        gy = ex * T;
        break;
      }
    }
    CHECK_DERIV(__ad_autodiff((void *)early, ex, __ad_const, ey), gx,
                ad_fd_array(early_arr, q, 2, 0));
    CHECK_DERIV(__ad_autodiff((void *)early, __ad_const, ex, ey), gy,
                ad_fd_array(early_arr, q, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)early, ex, 1.0, ey, -2.0), gx - 2.0 * gy, TOL_EXACT);
  }
  return ad_test_finish();
}
