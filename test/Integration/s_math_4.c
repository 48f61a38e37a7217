// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks erf hypot cbrt copysign, and floor ceil round trunc (derivative 0 between jumps).
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

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

static double f_erf(double x) { return erf(1.5 * x); }
static double d_erf(double x) { return 3.0 / sqrt(acos(-1.0)) * exp(-2.25 * x * x); }
static double f_cbrt(double x) { return cbrt(x) * x; }        /* x^(4/3), sign kept */
static double d_cbrt(double x) { return 4.0 / 3.0 * cbrt(x); }
static double f_floor(double x) { return x * floor(x); }
static double d_floor(double x) { return floor(x); }
static double f_ceil(double x) { return x * x * ceil(x); }
static double d_ceil(double x) { return 2.0 * x * ceil(x); }
static double f_round(double x) { return x * round(x) + sin(x) * trunc(x); }
static double d_round(double x) { return round(x) + cos(x) * trunc(x); }
/* Only the rounded value: derivative exactly 0. */
static double f_rint(double x) { return floor(x * x) + ceil(x) - round(2.0 * x) * trunc(x); }
static double d_rint(double x) { (void)x; return 0.0; }

static double f_hypot(double x, double y) { return hypot(x, y); }
static double hypot_a(double *p, int n) { (void)n; return hypot(p[0], p[1]); }
/* copysign(x, y) * y: d/dx = sgn(x) sgn(y) y = |y| sgn(x), d/dy = copysign(x, y). */
static double f_copysign(double x, double y) { return copysign(x, y) * y; }
static double copysign_a(double *p, int n) { (void)n; return f_copysign(p[0], p[1]); }

int main(void) {
  /* Away from integers and half-integers, and x^2 away from integers. */
  static const double xs[] = {-2.3, -0.7, 0.2, 1.35, 2.85, -3.6};
  for (int k = 0; k < 6; k++) {
    double x = xs[k];
    CHECK_FN(f_erf, d_erf, x);
    CHECK_FN(f_cbrt, d_cbrt, x);
    CHECK_FN(f_floor, d_floor, x);
    CHECK_FN(f_ceil, d_ceil, x);
    CHECK_FN(f_round, d_round, x);
    CHECK_FN(f_rint, d_rint, x);

    double y = ad_test_uniform(-3.0, 3.0), p[2] = {x, y}, h = hypot(x, y);
    struct d2 g = __ad_autodiff_d2((void *)f_hypot, x, y);
    CHECK_DERIV(g.dx, x / h, ad_fd_array(hypot_a, p, 2, 0));
    CHECK_DERIV(g.dy, y / h, ad_fd_array(hypot_a, p, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)f_hypot, x, 2.0, y, -1.0), (2.0 * x - y) / h, TOL_EXACT);

    struct d2 c = __ad_autodiff_d2((void *)f_copysign, x, y);
    CHECK_DERIV(c.dx, fabs(y) * (x < 0 ? -1.0 : 1.0), ad_fd_array(copysign_a, p, 2, 0));
    CHECK_DERIV(c.dy, copysign(x, y), ad_fd_array(copysign_a, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)f_copysign, x, 1.0, y, 0.0),
                fabs(y) * (x < 0 ? -1.0 : 1.0), ad_fd_array(copysign_a, p, 2, 0));
  }
  return ad_test_finish();
}
