// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks float arithmetic: float args promoted through "...", float and double adjoints back.
#include <ad.h>
#include "ad_test.h"

#define TOL_EXACT 1e-5
#define TOL_FD 1e-5
/* AD derivative vs the closed form and vs a central finite difference. */
#define CHECK_DERIV(ad, exact, fd)                                             \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), TOL_EXACT);                                     \
    CHECK_CLOSE((ad), (fd), TOL_FD);                                           \
  } while (0)

float __ad_autodiff_f(void *, ...);
float __ad_fwddiff_f(void *, ...);

/* g(x, y) = (x*x - y) / (x + 2) * (-y) + x / y, in float and (for FD) in double. */
static float g(float x, float y) { return (x * x - y) / (x + 2.0f) * (-y) + x / y; }
static double gd(double x, double y) { return (x * x - y) / (x + 2.0) * (-y) + x / y; }
static double gd_arr(double *p, int n) { (void)n; return gd(p[0], p[1]); }

/* h(x) = x*x*x - 1/x, one float parameter. */
static float h(float x) { return x * x * x - 1.0f / x; }
static double hd(double x) { return x * x * x - 1.0 / x; }

int main(void) {
  static const float xs[] = {-1.5f, -0.25f, 0.5f, 1.25f, 3.0f};
  static const float ys[] = {0.75f, -2.0f, 1.5f, -0.5f, 2.5f};
  for (int k = 0; k < 5; k++) {
    float x = xs[k], y = ys[k];
    double X = x, Y = y, p[2] = {X, Y};
    double q = X + 2.0, u = X * X - Y;
    double ex = -Y * (2.0 * X * q - u) / (q * q) + 1.0 / Y;
    double ey = -(X * X - 2.0 * Y) / q - X / (Y * Y);

    /* Float adjoint from a float-returning prototype. */
    float dxf = __ad_autodiff_f((void *)g, x, __ad_const, y);
    float dyf = __ad_autodiff_f((void *)g, __ad_const, x, y);
    CHECK_DERIV(dxf, ex, ad_fd_array(gd_arr, p, 2, 0));
    CHECK_DERIV(dyf, ey, ad_fd_array(gd_arr, p, 2, 1));

    /* The header's double-returning prototype, float literals and variables. */
    double dxd = __ad_autodiff((void *)g, x, __ad_const, y);
    CHECK_CLOSE(dxd, dxf, 1e-12);
    double dlit = __ad_autodiff((void *)g, 1.5f, __ad_const, 0.75f);
    CHECK_CLOSE(dlit, -0.75 * (3.0 * 3.5 - 1.5) / (3.5 * 3.5) + 1.0 / 0.75, TOL_EXACT);

    /* Forward mode, float tangents; returned as float and as double. */
    float tx = __ad_fwddiff_f((void *)g, x, 1.0f, y, 0.0f);
    double ty = __ad_fwddiff((void *)g, x, 0.0f, y, 1.0f);
    CHECK_DERIV(tx, ex, ad_fd_array(gd_arr, p, 2, 0));
    CHECK_DERIV(ty, ey, ad_fd_array(gd_arr, p, 2, 1));
    double tm = __ad_fwddiff((void *)g, x, 2.0f, y, -0.5f);
    CHECK_CLOSE(tm, 2.0 * dxf - 0.5 * dyf, TOL_EXACT);

    /* Single float parameter; a double argument is accepted as the promoted float. */
    double eh = 3.0 * X * X + 1.0 / (X * X);
    CHECK_DERIV(__ad_autodiff_f((void *)h, x), eh, ad_fd1(hd, X));
    CHECK_DERIV(__ad_autodiff((void *)h, X), eh, ad_fd1(hd, X));
    CHECK_DERIV(__ad_fwddiff((void *)h, x, 1.0f), eh, ad_fd1(hd, X));
  }
  return ad_test_finish();
}
