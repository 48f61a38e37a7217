// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks for loops with constant trip counts (fully unrolled at -O2), incl. a local array.
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

/* sum_{i=0}^{9} (i+1) x^i */
static double poly(double x) {
  double s = 0.0, p = 1.0;
  for (int i = 0; i < 10; i++) {
    s += (i + 1) * p;
    p *= x;
  }
  return s;
}
/* prod_{i=1}^{8} (x + i*y) */
static double prod(double x, double y) {
  double p = 1.0;
  for (int i = 1; i <= 8; i++)
    p *= x + i * y;
  return p;
}
/* a[i] = x^i / (i+1), s = sum_i a[i] * a[7-i]: two loops through a local array. */
static double conv(double x) {
  double a[8], t = 1.0, s = 0.0;
  for (int i = 0; i < 8; i++) {
    a[i] = t / (i + 1);
    t *= x;
  }
  for (int i = 0; i < 8; i++)
    s += a[i] * a[7 - i];
  return s;
}
static double prod_arr(double *p, int n) { (void)n; return prod(p[0], p[1]); }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double x = ad_test_uniform(-1.5, 1.5);
    double e = 0.0;
    for (int i = 1; i < 10; i++)
      e += i * (i + 1.0) * pow(x, i - 1);
    CHECK_DERIV(__ad_autodiff((void *)poly, x), e, ad_fd1(poly, x));
    CHECK_DERIV(__ad_fwddiff((void *)poly, x, 1.0), e, ad_fd1(poly, x));

    /* conv(x) = x^7 * sum_i 1/((i+1)(8-i)), so conv' = 7 x^6 * that sum. */
    double c = 0.0;
    for (int i = 0; i < 8; i++)
      c += 1.0 / ((i + 1.0) * (8.0 - i));
    CHECK_DERIV(__ad_autodiff((void *)conv, x), 7.0 * pow(x, 6) * c, ad_fd1(conv, x));
    CHECK_DERIV(__ad_fwddiff((void *)conv, x, 1.0), 7.0 * pow(x, 6) * c, ad_fd1(conv, x));

    /* d/dx prod = P * sum 1/(x+iy), d/dy prod = P * sum i/(x+iy); keep factors positive. */
    double px = ad_test_uniform(0.5, 2.0), py = ad_test_uniform(0.1, 1.0), q[2] = {px, py};
    double P = prod(px, py), sx = 0.0, sy = 0.0;
    for (int i = 1; i <= 8; i++) {
      sx += 1.0 / (px + i * py);
      sy += i / (px + i * py);
    }
    double dx = __ad_autodiff((void *)prod, px, __ad_const, py);
    double dy = __ad_autodiff((void *)prod, __ad_const, px, py);
    CHECK_DERIV(dx, P * sx, ad_fd_array(prod_arr, q, 2, 0));
    CHECK_DERIV(dy, P * sy, ad_fd_array(prod_arr, q, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)prod, px, 0.3, py, -0.8), 0.3 * dx - 0.8 * dy, TOL_EXACT);
  }
  return ad_test_finish();
}
