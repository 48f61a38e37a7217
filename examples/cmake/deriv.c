/* deriv.c - reverse and forward mode from C, checked against closed forms.
 *
 *   f(x, y) = sin(x) e^y + x^2 y
 *   df/dx = cos(x) e^y + 2 x y,   df/dy = sin(x) e^y + x^2
 *
 * and the gradient of a sum of squares through a pointer (2 x_i). */
#include <ad.h>
#include <math.h>
#include <stdio.h>

static double f(double x, double y) { return sin(x) * exp(y) + x * x * y; }

static double sum_of_squares(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

/* Two adjoints come back as a struct: an entry point that says so. */
struct d2 {
  double dx, dy;
};
struct d2 __ad_autodiff_d2(void *, ...);

static int failures;

static void check(const char *what, double got, double want) {
  int ok = fabs(got - want) <= 1e-12 * (1 + fabs(want));
  printf("C %-14s %.15g (closed form %.15g) %s\n", what, got, want,
         ok ? "ok" : "WRONG");
  failures += !ok;
}

int main(void) {
  double x = 0.7, y = -0.4;
  struct d2 g = __ad_autodiff_d2((void *)f, x, y);
  check("reverse df/dx", g.dx, cos(x) * exp(y) + 2 * x * y);
  check("reverse df/dy", g.dy, sin(x) * exp(y) + x * x);
  check("forward df/dx", __ad_fwddiff((void *)f, x, 1.0, y, 0.0),
        cos(x) * exp(y) + 2 * x * y);

  double v[3] = {1.5, -2.0, 0.25}, dv[3] = {0, 0, 0};
  __ad_autodiff((void *)sum_of_squares, __ad_dup, v, dv, __ad_const, 3);
  for (int i = 0; i < 3; ++i)
    check("reverse d/dv_i", dv[i], 2 * v[i]);
  return failures != 0;
}
