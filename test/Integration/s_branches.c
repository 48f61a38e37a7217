// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks if/else chains whose taken path depends on the floating-point inputs.
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

/* A four-way chain on x, then a second decision on y that rescales the result. */
static double piece(double x, double y) {
  double r;
  if (x < -1.0)
    r = x * y;
  else if (x < 0.5)
    r = x * x + y;
  else if (x < 2.0)
    r = y * y / x;
  else
    r = x - y * x * x;
  if (y > 0.0)
    r *= y;
  else
    r -= 3.0 * y;
  return r;
}
/* Nested ifs, a variable assigned on one path only, an early return. */
static double nested(double x, double y) {
  double t = 1.0;
  if (x > y) {
    if (x * y > 1.0)
      return x * y * y;
    t = x;
  } else if (y > 2.0 * x) {
    t = exp(y - x);
  }
  return t * (x + y);
}
static double a1(double *p, int n) { (void)n; return piece(p[0], p[1]); }
static double a2(double *p, int n) { (void)n; return nested(p[0], p[1]); }

int main(void) {
  static const double xs[] = {-2.3, -0.4, 0.2, 1.3, 2.7, 3.4};
  static const double ys[] = {-1.7, 0.6, 1.9, -0.3};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 4; j++) {
      double x = xs[i], y = ys[j], p[2] = {x, y};
      double r, rx, ry; /* region value and its partials */
      if (x < -1.0)     { r = x * y;         rx = y;              ry = x; }
      else if (x < 0.5) { r = x * x + y;     rx = 2 * x;          ry = 1; }
      else if (x < 2.0) { r = y * y / x;     rx = -y * y / (x * x); ry = 2 * y / x; }
      else              { r = x - y * x * x; rx = 1 - 2 * x * y;  ry = -x * x; }
      double ex = y > 0 ? rx * y : rx, ey = y > 0 ? ry * y + r : ry - 3.0;
      CHECK_DERIV(__ad_autodiff((void *)piece, x, __ad_const, y), ex, ad_fd_array(a1, p, 2, 0));
      CHECK_DERIV(__ad_autodiff((void *)piece, __ad_const, x, y), ey, ad_fd_array(a1, p, 2, 1));
      CHECK_DERIV(__ad_fwddiff((void *)piece, x, 1.0, y, 0.0), ex, ad_fd_array(a1, p, 2, 0));
      CHECK_CLOSE(__ad_fwddiff((void *)piece, x, 0.5, y, 2.0), 0.5 * ex + 2.0 * ey, TOL_EXACT);

      double nx, ny;
      if (x > y && x * y > 1.0) { nx = y * y;         ny = 2 * x * y; }
      else if (x > y)           { nx = 2 * x + y;     ny = x; }
      else if (y > 2.0 * x)     { double e = exp(y - x);
                                  nx = e * (1 - x - y); ny = e * (1 + x + y); }
      else                      { nx = 1;             ny = 1; }
      CHECK_DERIV(__ad_autodiff((void *)nested, x, __ad_const, y), nx, ad_fd_array(a2, p, 2, 0));
      CHECK_DERIV(__ad_autodiff((void *)nested, __ad_const, x, y), ny, ad_fd_array(a2, p, 2, 1));
      CHECK_CLOSE(__ad_fwddiff((void *)nested, x, -1.0, y, 3.0), -nx + 3.0 * ny, TOL_EXACT);
    }
  return ad_test_finish();
}
