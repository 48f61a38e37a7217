// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks fadd, fsub, fmul, fdiv and fneg in a formula of three doubles, both modes.
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

/* u = x*y - z, v = x + z*z; f = u/v - x*(y-2) - y/z + -(x*z) */
static double f(double x, double y, double z) {
  return (x * y - z) / (x + z * z) + (-x) * (y - 2.0) - y / z - (x * z);
}
static double f_arr(double *p, int n) { (void)n; return f(p[0], p[1], p[2]); }

/* g(x) = -(x - 1/x) * (x + 3): one variable, fneg of a subexpression. */
static double g(double x) { return -(x - 1.0 / x) * (x + 3.0); }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double x = ad_test_uniform(0.5, 2.0), y = ad_test_uniform(-1.0, 3.0),
           z = ad_test_uniform(0.5, 2.0);
    double u = x * y - z, v = x + z * z;
    double ex = y / v - u / (v * v) - (y - 2.0) - z;
    double ey = x / v - x - 1.0 / z;
    double ez = -1.0 / v - u * 2.0 * z / (v * v) + y / (z * z) - x;
    double p[3] = {x, y, z};

    double dx = __ad_autodiff((void *)f, x, __ad_const, y, __ad_const, z);
    double dy = __ad_autodiff((void *)f, __ad_const, x, y, __ad_const, z);
    double dz = __ad_autodiff((void *)f, __ad_const, x, __ad_const, y, __ad_out, z);
    CHECK_DERIV(dx, ex, ad_fd_array(f_arr, p, 3, 0));
    CHECK_DERIV(dy, ey, ad_fd_array(f_arr, p, 3, 1));
    CHECK_DERIV(dz, ez, ad_fd_array(f_arr, p, 3, 2));

    /* Forward mode: unit tangents, then a mixed direction. */
    double tx = __ad_fwddiff((void *)f, x, 1.0, y, 0.0, z, 0.0);
    double ty = __ad_fwddiff((void *)f, x, 0.0, y, 1.0, z, 0.0);
    double tz = __ad_fwddiff((void *)f, x, 0.0, __ad_const, y, z, 1.0);
    CHECK_DERIV(tx, ex, ad_fd_array(f_arr, p, 3, 0));
    CHECK_DERIV(ty, ey, ad_fd_array(f_arr, p, 3, 1));
    CHECK_DERIV(tz, ez, ad_fd_array(f_arr, p, 3, 2));
    double tm = __ad_fwddiff((void *)f, x, 0.5, y, -2.0, z, 3.0);
    CHECK_CLOSE(tm, 0.5 * dx - 2.0 * dy + 3.0 * dz, TOL_EXACT);
  }

  static const double xs[] = {-2.5, -0.75, 0.3, 1.0, 4.2};
  for (int k = 0; k < 5; k++) {
    double x = xs[k];
    /* g = -(x^2 + 3x - 1 - 3/x) */
    double e = -(2.0 * x + 3.0 + 3.0 / (x * x));
    CHECK_DERIV(__ad_autodiff((void *)g, x), e, ad_fd1(g, x));
    CHECK_DERIV(__ad_fwddiff((void *)g, x, 1.0), e, ad_fd1(g, x));
    CHECK_CLOSE(__ad_fwddiff((void *)g, x, -4.0), -4.0 * e, TOL_EXACT);
  }
  return ad_test_finish();
}
