// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks log log2 log10 log1p pow __builtin_powi fabs, both modes.
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
/* Reverse and forward derivative of f at x against df(x) and the FD of f. */
#define CHECK_FN(f, df, x)                                                     \
  do {                                                                         \
    double r_ = __ad_autodiff((void *)f, x);                                   \
    double t_ = __ad_fwddiff((void *)f, x, 1.0);                               \
    CHECK_DERIV(r_, df(x), ad_fd1(f, x));                                      \
    CHECK_DERIV(t_, df(x), ad_fd1(f, x));                                      \
  } while (0)

static double f_log(double x) { return log(x * x + 1.0); }
static double d_log(double x) { return 2.0 * x / (x * x + 1.0); }
static double f_log2(double x) { return log2(x * x + 2.0) * x; }
static double d_log2(double x) {
  return log2(x * x + 2.0) + 2.0 * x * x / ((x * x + 2.0) * log(2.0));
}
static double f_log10(double x) { return log10(x * x + 0.5); }
static double d_log10(double x) { return 2.0 * x / ((x * x + 0.5) * log(10.0)); }
static double f_log1p(double x) { return log1p(x * x); }
static double d_log1p(double x) { return 2.0 * x / (1.0 + x * x); }
static double f_pow3(double x) { return pow(x, 3.0); }          /* constant exponent */
static double d_pow3(double x) { return 3.0 * x * x; }
static double f_2pow(double x) { return pow(2.5, x); }          /* constant base */
static double d_2pow(double x) { return log(2.5) * pow(2.5, x); }
static double f_fabs(double x) { return fabs(x) * x + fabs(sin(x)); }
static double d_fabs(double x) { return 2.0 * fabs(x) + (sin(x) < 0 ? -cos(x) : cos(x)); }

static double f_pow(double x, double y) { return pow(x, y); }
static double pow_a(double *p, int n) { (void)n; return pow(p[0], p[1]); }
static double f_powi(double x, int n) { return __builtin_powi(x, n) + __builtin_powi(x, 2); }
static int cur_n;
static double powi_n(double x) { return f_powi(x, cur_n); }

int main(void) {
  static const double xs[] = {-1.7, -0.6, 0.35, 0.9, 2.4};
  for (int k = 0; k < 5; k++) {
    double x = xs[k];
    CHECK_FN(f_log, d_log, x);
    CHECK_FN(f_log2, d_log2, x);
    CHECK_FN(f_log10, d_log10, x);
    CHECK_FN(f_log1p, d_log1p, x);
    CHECK_FN(f_pow3, d_pow3, x);
    CHECK_FN(f_2pow, d_2pow, x);
    CHECK_FN(f_fabs, d_fabs, x);

    /* pow with both arguments active: needs x > 0. */
    double b = fabs(x) + 0.2, e = ad_test_uniform(-2.0, 3.0), p[2] = {b, e};
    double ebx = e * pow(b, e - 1.0), eby = pow(b, e) * log(b);
    CHECK_DERIV(__ad_autodiff((void *)f_pow, b, __ad_const, e), ebx, ad_fd_array(pow_a, p, 2, 0));
    CHECK_DERIV(__ad_autodiff((void *)f_pow, __ad_const, b, e), eby, ad_fd_array(pow_a, p, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)f_pow, b, 0.5, e, 2.0), 0.5 * ebx + 2.0 * eby, TOL_EXACT);

    /* powi with an integer exponent taken from an argument, negative ones included. */
    static const int ns[] = {-3, 0, 1, 4, 7};
    int n = cur_n = ns[k];
    double ep = (n == 0 ? 0.0 : n * __builtin_powi(x, n - 1)) + 2.0 * x;
    CHECK_DERIV(__ad_autodiff((void *)f_powi, x, n), ep, ad_fd1(powi_n, x));
    CHECK_DERIV(__ad_fwddiff((void *)f_powi, x, 1.0, __ad_const, n), ep, ad_fd1(powi_n, x));
  }
  return ad_test_finish();
}
