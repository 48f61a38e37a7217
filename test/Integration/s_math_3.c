// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks fmin fmax tanh sinh cosh asin acos atan atan2, both modes.
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

static double f_tanh(double x) { return tanh(2.0 * x); }
static double d_tanh(double x) { return 2.0 * (1.0 - tanh(2.0 * x) * tanh(2.0 * x)); }
static double f_sinh(double x) { return sinh(x) * x; }
static double d_sinh(double x) { return cosh(x) * x + sinh(x); }
static double f_cosh(double x) { return cosh(x * x); }
static double d_cosh(double x) { return 2.0 * x * sinh(x * x); }
static double f_asin(double x) { return asin(x); }
static double d_asin(double x) { return 1.0 / sqrt(1.0 - x * x); }
static double f_acos(double x) { return acos(0.5 * x) * x; }
static double d_acos(double x) { return acos(0.5 * x) - 0.5 * x / sqrt(1.0 - 0.25 * x * x); }
static double f_atan(double x) { return atan(3.0 * x); }
static double d_atan(double x) { return 3.0 / (1.0 + 9.0 * x * x); }

/* fmin/fmax (llvm.minnum/maxnum at -O2) select which input the adjoint flows to. */
static double f_minmax(double x, double y) { return fmin(x * y, x + y) * fmax(x, y * y); }
static double minmax_a(double *p, int n) { (void)n; return f_minmax(p[0], p[1]); }
static double f_atan2(double y, double x) { return atan2(y, x); }
static double atan2_a(double *p, int n) { (void)n; return atan2(p[0], p[1]); }

int main(void) {
  static const double xs[] = {-0.85, -0.45, 0.1, 0.6, 0.95};
  for (int k = 0; k < 5; k++) {
    double x = xs[k];
    CHECK_FN(f_tanh, d_tanh, x);
    CHECK_FN(f_sinh, d_sinh, x);
    CHECK_FN(f_cosh, d_cosh, x);
    CHECK_FN(f_asin, d_asin, x);
    CHECK_FN(f_acos, d_acos, x);
    CHECK_FN(f_atan, d_atan, x);
  }
  /* (x, y) pairs covering all four min/max outcomes and all four quadrants. */
  static const double pts[][2] = {{2.0, 3.0}, {0.5, 0.2}, {-1.5, 0.8}, {3.0, -0.4},
                                  {-0.7, -1.9}, {0.3, 1.7},  {4.0, 1.5}};
  for (int k = 0; k < 7; k++) {
    double x = pts[k][0], y = pts[k][1], p[2] = {x, y};
    int lo = x * y < x + y, hi = x > y * y;
    double mn = lo ? x * y : x + y, mx = hi ? x : y * y;
    double ex = (lo ? y : 1.0) * mx + mn * (hi ? 1.0 : 0.0);
    double ey = (lo ? x : 1.0) * mx + mn * (hi ? 0.0 : 2.0 * y);
    struct d2 g = __ad_autodiff_d2((void *)f_minmax, x, y);
    CHECK_DERIV(g.dx, ex, ad_fd_array(minmax_a, p, 2, 0));
    CHECK_DERIV(g.dy, ey, ad_fd_array(minmax_a, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)f_minmax, x, 0.0, y, 1.0), ey,
                ad_fd_array(minmax_a, p, 2, 1));

    /* atan2(y, x): d/dy = x / r^2, d/dx = -y / r^2 (p is {y, x} here). */
    double q[2] = {y, x}, r2 = x * x + y * y;
    struct d2 a = __ad_autodiff_d2((void *)f_atan2, y, x);
    CHECK_DERIV(a.dx, x / r2, ad_fd_array(atan2_a, q, 2, 0));
    CHECK_DERIV(a.dy, -y / r2, ad_fd_array(atan2_a, q, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)f_atan2, y, 1.0, x, 1.0), (x - y) / r2, TOL_EXACT);
  }
  return ad_test_finish();
}
