// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks sqrt sin cos tan exp exp2 expm1 (each composed with arithmetic), both modes.
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

static double f_sqrt(double x) { return sqrt(x * x + 1.0); }
static double d_sqrt(double x) { return x / sqrt(x * x + 1.0); }
static double f_sqrt2(double x) { return x * sqrt(x + 2.0); }
static double d_sqrt2(double x) { return sqrt(x + 2.0) + x / (2.0 * sqrt(x + 2.0)); }
static double f_sin(double x) { return sin(2.0 * x) * x; }
static double d_sin(double x) { return 2.0 * cos(2.0 * x) * x + sin(2.0 * x); }
static double f_cos(double x) { return cos(x * x); }
static double d_cos(double x) { return -2.0 * x * sin(x * x); }
static double f_tan(double x) { return tan(x); }
static double d_tan(double x) { return 1.0 + tan(x) * tan(x); }
static double f_exp(double x) { return exp(-x * x); }
static double d_exp(double x) { return -2.0 * x * exp(-x * x); }
static double f_exp2(double x) { return exp2(3.0 * x); }
static double d_exp2(double x) { return 3.0 * log(2.0) * exp2(3.0 * x); }
static double f_expm1(double x) { return expm1(x) / x; }
static double d_expm1(double x) { return (exp(x) * x - expm1(x)) / (x * x); }
static double f_expm1_raw(double x) { return expm1(x); }
static double f_sqrt_raw(double x) { return sqrt(x); }
/* All of them at once, through a chain of calls. */
static double f_mix(double x) { return sqrt(exp(sin(x)) + cos(x) * cos(x)) * tan(0.5 * x); }
static double d_mix(double x) {
  double u = exp(sin(x)) + cos(x) * cos(x), du = exp(sin(x)) * cos(x) - 2.0 * cos(x) * sin(x);
  double t = tan(0.5 * x);
  return du / (2.0 * sqrt(u)) * t + sqrt(u) * 0.5 * (1.0 + t * t);
}

int main(void) {
  static const double xs[] = {-1.1, -0.4, 0.3, 0.8, 1.25, 1.45};
  for (int k = 0; k < 6; k++) {
    double x = xs[k];
    CHECK_FN(f_sqrt, d_sqrt, x);
    CHECK_FN(f_sqrt2, d_sqrt2, x);
    CHECK_FN(f_sin, d_sin, x);
    CHECK_FN(f_cos, d_cos, x);
    CHECK_FN(f_tan, d_tan, x);
    CHECK_FN(f_exp, d_exp, x);
    CHECK_FN(f_exp2, d_exp2, x);
    CHECK_FN(f_expm1, d_expm1, x);
    CHECK_FN(f_mix, d_mix, x);
    /* Forward mode is linear in the tangent. */
    CHECK_CLOSE(__ad_fwddiff((void *)f_mix, x, -2.5), -2.5 * d_mix(x), TOL_EXACT);
  }
  /* Near 0: d expm1(x) = exp(x), and d sqrt(x) is large but finite. */
  double tiny = 1e-9;
  CHECK_CLOSE(__ad_autodiff((void *)f_expm1_raw, tiny), exp(tiny), 1e-14);
  CHECK_CLOSE(__ad_autodiff((void *)f_sqrt_raw, tiny), 0.5 / sqrt(tiny), 1e-12);
  return ad_test_finish();
}
