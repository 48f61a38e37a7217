// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks fmod/fmodf (libm calls) and the frem instruction (C has no % on doubles).
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
#define CHECK_DERIVF(ad, exact, fd)                                            \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), 1e-5);                                          \
    CHECK_CLOSE((ad), (fd), 1e-5);                                             \
  } while (0)

/* d fmod(a, b) = da - trunc(a / b) db */
static double f1(double x, double y) { return fmod(x, y); }
static double f2(double x, double y) { return x * fmod(x * x + 1.0, y); }
/* __builtin_elementwise_fmod emits a plain 'frem' instruction, what % would be. */
static double f3(double x, double y) { return __builtin_elementwise_fmod(x, y) * x; }
static float f4(float x, float y) { return fmodf(x, y) * y; }
static double f4d(double x, double y) { return fmod(x, y) * y; }

static double a1(double *p, int n) { (void)n; return f1(p[0], p[1]); }
static double a2(double *p, int n) { (void)n; return f2(p[0], p[1]); }
static double a3(double *p, int n) { (void)n; return f3(p[0], p[1]); }
static double a4(double *p, int n) { (void)n; return f4d(p[0], p[1]); }

/* Quotient not within 1e-3 of an integer: away from the jumps of fmod. */
static int smooth_at(double a, double b) {
  double q = a / b;
  return fabs(q - round(q)) > 1e-3;
}

int main(void) {
  int done = 0;
  while (done < 8) {
    double x = ad_test_uniform(-6.0, 6.0), y = ad_test_uniform(0.7, 2.5);
    if (done % 2)
      y = -y;
    if (!smooth_at(x, y) || !smooth_at(x * x + 1.0, y) || !smooth_at((float)x, (float)y))
      continue;
    done++;
    double p[2] = {x, y};
    double t1 = trunc(x / y), t2 = trunc((x * x + 1.0) / y);

    CHECK_DERIV(__ad_autodiff((void *)f1, x, __ad_const, y), 1.0, ad_fd_array(a1, p, 2, 0));
    CHECK_DERIV(__ad_autodiff((void *)f1, __ad_const, x, y), -t1, ad_fd_array(a1, p, 2, 1));
    double e2x = fmod(x * x + 1.0, y) + 2.0 * x * x, e2y = -x * t2;
    CHECK_DERIV(__ad_autodiff((void *)f2, x, __ad_const, y), e2x, ad_fd_array(a2, p, 2, 0));
    CHECK_DERIV(__ad_autodiff((void *)f2, __ad_const, x, y), e2y, ad_fd_array(a2, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)f2, x, 1.0, y, 0.0), e2x, ad_fd_array(a2, p, 2, 0));
    CHECK_CLOSE(__ad_fwddiff((void *)f2, x, 0.3, y, -1.1), 0.3 * e2x - 1.1 * e2y, TOL_EXACT);

    double e3x = fmod(x, y) + x, e3y = -x * t1;
    CHECK_DERIV(__ad_autodiff((void *)f3, x, __ad_const, y), e3x, ad_fd_array(a3, p, 2, 0));
    CHECK_DERIV(__ad_autodiff((void *)f3, __ad_const, x, y), e3y, ad_fd_array(a3, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)f3, x, 0.0, y, 1.0), e3y, ad_fd_array(a3, p, 2, 1));

    /* float: fmodf(x, y) * y */
    float xf = (float)x, yf = (float)y;
    double pf[2] = {xf, yf};
    double e4x = yf, e4y = fmod(xf, yf) - (double)yf * trunc((double)xf / yf);
    CHECK_DERIVF(__ad_autodiff((void *)f4, xf, __ad_const, yf), e4x, ad_fd_array(a4, pf, 2, 0));
    CHECK_DERIVF(__ad_autodiff((void *)f4, __ad_const, xf, yf), e4y, ad_fd_array(a4, pf, 2, 1));
    CHECK_DERIVF(__ad_fwddiff((void *)f4, xf, 1.0f, yf, 0.0f), e4x, ad_fd_array(a4, pf, 2, 0));
  }
  return ad_test_finish();
}
