// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks ternaries (select/phi): max and abs by hand, clamps, comparisons used as numbers.
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
struct d2 __ad_autodiff_d2(void *, ...);

static double mymax(double a, double b) { return a > b ? a : b; }
static double myabs(double a) { return a < 0 ? -a : a; }
/* Both arms active, different variables, different operations. */
static double s1(double x, double y) {
  double m = mymax(x * y, x + y);
  return m * myabs(x - y) + (x <= y ? x * x : y * y * y);
}
/* Clamp to [-1, 2] (constant bounds), then a comparison converted to double. */
static double s2(double x, double y) {
  double c = x < -1.0 ? -1.0 : (x > 2.0 ? 2.0 : x);
  return c * y + (double)(x > y) * x * y + (y >= 0.5) * 3.0;
}
static double a1(double *p, int n) { (void)n; return s1(p[0], p[1]); }
static double a2(double *p, int n) { (void)n; return s2(p[0], p[1]); }

int main(void) {
  /* Points in every branch combination, away from ties. */
  static const double pts[][2] = {{-2.5, 0.3}, {-0.7, -1.9}, {0.4, 1.6}, {1.3, -0.2},
                                  {2.6, 2.9},  {3.1, 0.8},   {0.9, 0.6}, {-1.4, -0.6}};
  for (int k = 0; k < 8; k++) {
    double x = pts[k][0], y = pts[k][1], p[2] = {x, y};
    /* s1 */
    int first = x * y > x + y;
    double m = first ? x * y : x + y;
    double mx = first ? y : 1.0, my = first ? x : 1.0;
    double sg = x - y < 0 ? -1.0 : 1.0, ab = fabs(x - y);
    double e1x = mx * ab + m * sg + (x <= y ? 2.0 * x : 0.0);
    double e1y = my * ab - m * sg + (x <= y ? 0.0 : 3.0 * y * y);
    struct d2 g1 = __ad_autodiff_d2((void *)s1, x, y);
    CHECK_DERIV(g1.dx, e1x, ad_fd_array(a1, p, 2, 0));
    CHECK_DERIV(g1.dy, e1y, ad_fd_array(a1, p, 2, 1));
    CHECK_DERIV(__ad_autodiff((void *)s1, x, __ad_const, y), e1x, ad_fd_array(a1, p, 2, 0));
    CHECK_DERIV(__ad_fwddiff((void *)s1, x, 0.0, y, 1.0), e1y, ad_fd_array(a1, p, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)s1, x, 1.5, y, -0.5), 1.5 * g1.dx - 0.5 * g1.dy, TOL_EXACT);

    /* s2 */
    int inside = x > -1.0 && x < 2.0, gt = x > y;
    double c = x < -1.0 ? -1.0 : (x > 2.0 ? 2.0 : x);
    double e2x = (inside ? y : 0.0) + (gt ? y : 0.0), e2y = c + (gt ? x : 0.0);
    struct d2 g2 = __ad_autodiff_d2((void *)s2, x, y);
    CHECK_DERIV(g2.dx, e2x, ad_fd_array(a2, p, 2, 0));
    CHECK_DERIV(g2.dy, e2y, ad_fd_array(a2, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)s2, x, 1.0, y, 0.0), e2x, ad_fd_array(a2, p, 2, 0));
    CHECK_CLOSE(__ad_fwddiff((void *)s2, x, -2.0, y, 0.25), -2.0 * g2.dx + 0.25 * g2.dy,
                TOL_EXACT);

    /* The helpers alone. */
    CHECK_DERIV(__ad_autodiff((void *)myabs, x), x < 0 ? -1.0 : 1.0, ad_fd1(myabs, x));
    struct d2 gm = __ad_autodiff_d2((void *)mymax, x, y);
    CHECK_TRUE(gm.dx == (x > y ? 1.0 : 0.0) && gm.dy == (x > y ? 0.0 : 1.0));
  }
  return ad_test_finish();
}
