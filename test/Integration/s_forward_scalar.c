// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks forward mode on scalar functions: tangents vs closed forms, FD, and reverse mode.
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

struct d2 { double dx, dy; };
struct d3 { double dx, dy, dz; };
struct d2 __ad_autodiff_d2(void *, ...);
struct d3 __ad_autodiff_d3(void *, ...);
float __ad_fwddiff_f(void *, ...);

static double f(double x, double y) { return x * y + sin(x) * exp(y); }
static double g(double x) { return x * x * x - 2.0 * x; }
static double h(double x, double y, double z) {
  return (x + y) / (1.0 + z * z) + log(x * x + y * y + 1.0);
}
static float q(float x, float y) { return x * x * y - y; }

/* Central difference of f3 along direction v at p. */
static double dir_fd(double (*f3)(double, double, double), const double *p, const double *v) {
  double e = 1e-6;
  return (f3(p[0] + e * v[0], p[1] + e * v[1], p[2] + e * v[2]) -
          f3(p[0] - e * v[0], p[1] - e * v[1], p[2] - e * v[2])) / (2 * e);
}
static double f_3(double x, double y, double z) { (void)z; return f(x, y); }
static double q_3(double x, double y, double z) { (void)z; return x * x * y - y; }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double x = ad_test_uniform(-2.0, 2.0), y = ad_test_uniform(-1.5, 1.5),
           z = ad_test_uniform(-2.0, 2.0), p[3] = {x, y, z};
    double v[3] = {ad_test_uniform(-1, 1), ad_test_uniform(-1, 1), ad_test_uniform(-1, 1)};
    double ex = y + cos(x) * exp(y), ey = x + sin(x) * exp(y);
    double u[3] = {1, 0, 0}, w[3] = {0, 1, 0};

    /* f(x, y): unit tangents, a random direction, forward vs reverse. */
    CHECK_DERIV(__ad_fwddiff((void *)f, x, 1.0, y, 0.0), ex, dir_fd(f_3, p, u));
    CHECK_DERIV(__ad_fwddiff((void *)f, x, 0.0, y, 1.0), ey, dir_fd(f_3, p, w));
    double tv = __ad_fwddiff((void *)f, x, v[0], y, v[1]);
    CHECK_DERIV(tv, v[0] * ex + v[1] * ey, dir_fd(f_3, p, v));
    struct d2 r = __ad_autodiff_d2((void *)f, x, y);
    CHECK_CLOSE(tv, v[0] * r.dx + v[1] * r.dy, TOL_EXACT);
    /* A constant argument and a zero tangent. */
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 1.0, __ad_const, y), ex, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)f, __ad_const, x, y, 1.0), ey, TOL_EXACT);
    CHECK_TRUE(__ad_fwddiff((void *)f, x, 0.0, y, 0.0) == 0.0);
    /* Linearity in the tangent. */
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 3.0 * v[0], y, 3.0 * v[1]), 3.0 * tv, TOL_EXACT);

    /* g(x), one variable. */
    CHECK_DERIV(__ad_fwddiff((void *)g, x, 1.0), 3 * x * x - 2, ad_fd1(g, x));
    CHECK_CLOSE(__ad_fwddiff((void *)g, x, v[2]), v[2] * __ad_autodiff((void *)g, x), TOL_EXACT);

    /* h(x, y, z), three variables. */
    double s = 1.0 + z * z, R = x * x + y * y + 1.0;
    double hx = 1 / s + 2 * x / R, hy = 1 / s + 2 * y / R, hz = -(x + y) * 2 * z / (s * s);
    double th = __ad_fwddiff((void *)h, x, v[0], y, v[1], z, v[2]);
    CHECK_DERIV(th, v[0] * hx + v[1] * hy + v[2] * hz, dir_fd(h, p, v));
    struct d3 rh = __ad_autodiff_d3((void *)h, x, y, z);
    CHECK_CLOSE(th, v[0] * rh.dx + v[1] * rh.dy + v[2] * rh.dz, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)h, x, 0.0, __ad_const, y, z, 1.0), hz, TOL_EXACT);

    /* float tangents. */
    float xf = (float)x, yf = (float)y;
    double X = xf, Y = yf, pq[3] = {X, Y, 0}, vq[3] = {0.5, -1.0, 0};
    float tq = __ad_fwddiff_f((void *)q, xf, 0.5f, yf, -1.0f);
    CHECK_CLOSE(tq, 0.5 * 2 * X * Y - (X * X - 1), 1e-5);
    CHECK_CLOSE(tq, dir_fd(q_3, pq, vq), 1e-5);
  }
  return ad_test_finish();
}
