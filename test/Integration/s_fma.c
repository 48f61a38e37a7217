// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks fma()/fmaf() (llvm.fma) and contracted a*b+c (llvm.fmuladd), both modes.
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

struct d3 { double dx, dy, dz; };
struct d3 __ad_autodiff_d3(void *, ...);

/* f1 = fma(x, y, z*z) */
static double f1(double x, double y, double z) { return fma(x, y, z * z); }
/* f2 = x*y + z*x*x: clang contracts this into llvm.fmuladd (-ffp-contract=on). */
static double f2(double x, double y, double z) { return x * y + z * x * x; }
/* f3: nested fma with the same variable in several slots. */
static double f3(double x, double y, double z) { return fma(fma(x, x, y), z, x * y); }
static float f4(float x, float y) { return fmaf(x, y, x) * y; }

static double a1(double *p, int n) { (void)n; return f1(p[0], p[1], p[2]); }
static double a2(double *p, int n) { (void)n; return f2(p[0], p[1], p[2]); }
static double a3(double *p, int n) { (void)n; return f3(p[0], p[1], p[2]); }
static double a4(double *p, int n) { (void)n; return fma(p[0], p[1], p[0]) * p[1]; }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double x = ad_test_uniform(-2.0, 2.0), y = ad_test_uniform(-2.0, 2.0),
           z = ad_test_uniform(-2.0, 2.0), p[3] = {x, y, z};
    double e1[3] = {y, x, 2.0 * z};
    double e2[3] = {y + 2.0 * z * x, x, x * x};
    /* f3 = (x*x + y)*z + x*y */
    double e3[3] = {2.0 * x * z + y, z + x, x * x + y};

    struct d3 g1 = __ad_autodiff_d3((void *)f1, x, y, z);
    struct d3 g2 = __ad_autodiff_d3((void *)f2, x, y, z);
    struct d3 g3 = __ad_autodiff_d3((void *)f3, x, y, z);
    double r1[3] = {g1.dx, g1.dy, g1.dz}, r2[3] = {g2.dx, g2.dy, g2.dz},
           r3[3] = {g3.dx, g3.dy, g3.dz};
    for (int i = 0; i < 3; i++) {
      CHECK_DERIV(r1[i], e1[i], ad_fd_array(a1, p, 3, i));
      CHECK_DERIV(r2[i], e2[i], ad_fd_array(a2, p, 3, i));
      CHECK_DERIV(r3[i], e3[i], ad_fd_array(a3, p, 3, i));
    }
    /* Scalar returns with constants in between. */
    CHECK_DERIV(__ad_autodiff((void *)f1, __ad_const, x, y, __ad_const, z), e1[1],
                ad_fd_array(a1, p, 3, 1));
    CHECK_DERIV(__ad_autodiff((void *)f2, x, __ad_const, y, __ad_const, z), e2[0],
                ad_fd_array(a2, p, 3, 0));

    /* Forward mode against the reverse gradient. */
    double v[3] = {0.7, -1.3, 2.1};
    CHECK_CLOSE(__ad_fwddiff((void *)f1, x, v[0], y, v[1], z, v[2]),
                v[0] * g1.dx + v[1] * g1.dy + v[2] * g1.dz, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)f2, x, v[0], y, v[1], z, v[2]),
                v[0] * g2.dx + v[1] * g2.dy + v[2] * g2.dz, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)f3, x, v[0], y, v[1], z, v[2]),
                v[0] * e3[0] + v[1] * e3[1] + v[2] * e3[2], TOL_EXACT);

    /* float: fmaf(x, y, x) * y = x*y*y + x*y */
    float xf = (float)x, yf = (float)y;
    double X = xf, Y = yf, q[2] = {X, Y};
    CHECK_DERIVF(__ad_autodiff((void *)f4, xf, __ad_const, yf), Y * Y + Y,
                 ad_fd_array(a4, q, 2, 0));
    CHECK_DERIVF(__ad_autodiff((void *)f4, __ad_const, xf, yf), 2.0 * X * Y + X,
                 ad_fd_array(a4, q, 2, 1));
    CHECK_DERIVF(__ad_fwddiff((void *)f4, xf, 0.0f, yf, 1.0f), 2.0 * X * Y + X,
                 ad_fd_array(a4, q, 2, 1));
  }
  return ad_test_finish();
}
