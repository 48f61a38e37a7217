// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks calls f -> g -> h (some noinline), helpers called with different activity.
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
/* For functions that round through float: FD with a step far above float's ulp. */
#define CHECK_DERIV_COARSE(ad, exact, fd)                                      \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), TOL_EXACT);                                     \
    CHECK_CLOSE((ad), (fd), 1e-3);                                             \
  } while (0)

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

static double h(double x) { return x * x + 1.0; } /* inlinable */
__attribute__((noinline)) static double g(double x, double y) { return h(x) * y + x; }
/* g called with a constant second argument. */
__attribute__((noinline)) static double q(double x) { return sin(x) * g(x, 2.0); }
/* g called with both orders, plus q and h: g's x and y are each active and inactive. */
static double f(double x, double y) { return g(x, y) * g(y, x) + q(x) + h(y); }

/* Results through out-pointers of a noinline void helper. */
__attribute__((noinline)) static void polar(double r, double t, double *px, double *py) {
  *px = r * cos(t);
  *py = r * sin(t);
}
static double area(double r, double t) {
  double a, b;
  polar(r, t, &a, &b);
  return a * b + a;
}
/* A noinline helper taking an int, and an external (non-static) one taking a float. */
__attribute__((noinline)) static double scale(double x, int k) { return x * k; }
__attribute__((noinline)) float sq_f(float v) { return v * v; }
static double chain(double x) { return scale(x, 3) + scale(x * x, -2) + sq_f((float)x); }

static double cur_x;
static double g_y(double y) { return g(cur_x, y); }
static double chain_fd(double x) { return (chain(x + 1e-3) - chain(x - 1e-3)) / 2e-3; }
static double f_a(double *p, int n) { (void)n; return f(p[0], p[1]); }
static double area_a(double *p, int n) { (void)n; return area(p[0], p[1]); }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double x = ad_test_uniform(-1.5, 1.5), y = ad_test_uniform(-1.5, 1.5), p[2] = {x, y};
    /* g_x(a, b) = 2ab + 1, g_y(a, b) = a^2 + 1 */
    double gxy = g(x, y), gyx = g(y, x);
    double dq = cos(x) * (2 * (x * x + 1) + x) + sin(x) * (4 * x + 1);
    double ex = (2 * x * y + 1) * gyx + gxy * (y * y + 1) + dq;
    double ey = (x * x + 1) * gyx + gxy * (2 * y * x + 1) + 2 * y;
    struct d2 d = __ad_autodiff_d2((void *)f, x, y);
    CHECK_DERIV(d.dx, ex, ad_fd_array(f_a, p, 2, 0));
    CHECK_DERIV(d.dy, ey, ad_fd_array(f_a, p, 2, 1));
    CHECK_DERIV(__ad_autodiff((void *)f, x, __ad_const, y), ex, ad_fd_array(f_a, p, 2, 0));
    CHECK_DERIV(__ad_autodiff((void *)f, __ad_const, x, y), ey, ad_fd_array(f_a, p, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 0.5, y, -1.5), 0.5 * ex - 1.5 * ey, TOL_EXACT);
    /* The helpers differentiated on their own. */
    CHECK_DERIV(__ad_autodiff((void *)q, x), dq, ad_fd1(q, x));
    CHECK_DERIV(__ad_fwddiff((void *)q, x, 1.0), dq, ad_fd1(q, x));
    cur_x = x;
    CHECK_DERIV(__ad_autodiff((void *)g, __ad_const, x, y), x * x + 1, ad_fd1(g_y, y));

    /* area = r^2 sin(2t) / 2 + r cos t */
    double r = ad_test_uniform(0.5, 2.0), t = ad_test_uniform(-3.0, 3.0), s[2] = {r, t};
    double er = r * sin(2 * t) + cos(t), et = r * r * cos(2 * t) - r * sin(t);
    struct d2 a = __ad_autodiff_d2((void *)area, r, t);
    CHECK_DERIV(a.dx, er, ad_fd_array(area_a, s, 2, 0));
    CHECK_DERIV(a.dy, et, ad_fd_array(area_a, s, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)area, r, 1.0, t, 1.0), er + et, TOL_EXACT);

    /* chain = 3x - 2x^2 + (float)x^2 (rounded through float) */
    double xf = (float)x, ec = 3 - 4 * x + 2 * xf;
    CHECK_DERIV_COARSE(__ad_autodiff((void *)chain, x), ec, chain_fd(x));
    CHECK_DERIV_COARSE(__ad_fwddiff((void *)chain, x, 1.0), ec, chain_fd(x));
  }
  return ad_test_finish();
}
