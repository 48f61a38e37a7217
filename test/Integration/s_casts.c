// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks fpext, fptrunc, sitofp/uitofp of constant ints, fptosi, and promoted small ints.
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
/* Functions that round through float: the FD needs a step far above float's ulp. */
#define CHECK_DERIV_COARSE(ad, exact, fd)                                      \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), TOL_EXACT);                                     \
    CHECK_CLOSE((ad), (fd), 1e-3);                                             \
  } while (0)
/* The adjoint of a float parameter is a float: float tolerances. */
#define CHECK_DERIVF(ad, exact, fd)                                            \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), 1e-5);                                          \
    CHECK_CLOSE((ad), (fd), 1e-5);                                             \
  } while (0)
static double fd_coarse(double (*f)(double), double x) {
  return (f(x + 1e-3) - f(x - 1e-3)) / 2e-3;
}

static double c1(float x) { double d = x; return d * d * 3.0 + d; }          /* fpext */
static double c2(double x) { float t = (float)x; return (double)(t * t) + x; } /* fptrunc */
static double c3(double x, int n) { return x * n + (double)n * x * x; }       /* sitofp */
static double c4(double x, unsigned k) { return x / (double)k + (double)k * x * x; } /* uitofp */
static double c5(double x) { int i = (int)x; return x * i + (double)i; }     /* fptosi */
static double c6(double x, short s, long long l, unsigned char u) {
  return x * s + x * x * (double)l - u / x;
}
static float c7(double x, int n) { float f = (float)(x * n); return f * f; }

static double c1d(double x) { return x * x * 3.0 + x; } /* c1 without the rounding */
static double c3d(double x) { return c3(x, -3); }
static double c4d(double x) { return c4(x, 7u); }
static double c6d(double x) { return c6(x, (short)-12, 1LL << 40, (unsigned char)200); }
static double c7d(double x) { return c7(x, 5); }

int main(void) {
  static const double xs[] = {-2.7, -1.3, -0.6, 0.45, 1.7, 2.2};
  for (int k = 0; k < 6; k++) {
    double x = xs[k];
    float xf = (float)x;
    double X = xf;
    double d1 = __ad_autodiff((void *)c1, xf);
    CHECK_DERIVF(d1, 6.0 * X + 1.0, ad_fd1(c1d, X));
    CHECK_TRUE(d1 == (double)(float)d1); /* a float adjoint, widened */
    CHECK_DERIV(__ad_fwddiff((void *)c1, xf, 1.0f), 6.0 * X + 1.0, ad_fd1(c1d, X));
    CHECK_DERIV_COARSE(__ad_autodiff((void *)c2, x), 2.0 * X + 1.0, fd_coarse(c2, x));
    CHECK_DERIV_COARSE(__ad_fwddiff((void *)c2, x, 1.0), 2.0 * X + 1.0, fd_coarse(c2, x));

    int n = -3;
    CHECK_DERIV(__ad_autodiff((void *)c3, x, n), n + 2.0 * n * x, ad_fd1(c3d, x));
    CHECK_DERIV(__ad_autodiff((void *)c3, x, __ad_const, n), n + 2.0 * n * x, ad_fd1(c3d, x));
    CHECK_DERIV(__ad_fwddiff((void *)c3, x, 1.0, n), n + 2.0 * n * x, ad_fd1(c3d, x));
    unsigned u = 7u;
    CHECK_DERIV(__ad_autodiff((void *)c4, x, u), 1.0 / 7.0 + 14.0 * x, ad_fd1(c4d, x));
    CHECK_DERIV(__ad_fwddiff((void *)c4, x, 1.0, __ad_const, u), 1.0 / 7.0 + 14.0 * x,
                ad_fd1(c4d, x));

    double i = (double)(int)x;
    CHECK_DERIV(__ad_autodiff((void *)c5, x), i, ad_fd1(c5, x));
    CHECK_DERIV(__ad_fwddiff((void *)c5, x, 1.0), i, ad_fd1(c5, x));

    /* short and unsigned char are promoted to int by "...", then narrowed back. */
    short s = -12;
    long long l = 1LL << 40;
    unsigned char uc = 200;
    double e6 = s + 2.0 * x * (double)l + 200.0 / (x * x);
    CHECK_DERIV(__ad_autodiff((void *)c6, x, s, l, uc), e6, ad_fd1(c6d, x));
    CHECK_DERIV(__ad_fwddiff((void *)c6, x, 1.0, s, __ad_const, l, uc), e6, ad_fd1(c6d, x));

    double f7 = (float)(x * 5);
    CHECK_DERIV_COARSE(__ad_autodiff((void *)c7, x, 5), 10.0 * f7, fd_coarse(c7d, x));
    CHECK_DERIV_COARSE(__ad_fwddiff((void *)c7, x, 1.0, 5), 10.0 * f7, fd_coarse(c7d, x));
  }
  return ad_test_finish();
}
