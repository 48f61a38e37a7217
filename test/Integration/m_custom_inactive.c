// A logging function marked AD_INACTIVE: it records a differentiated value
// in a global (without the mark that store is an error: the value's
// derivative would be lost) and no derivative flows through it. The primal
// runs exactly once per differentiation call, so each call logs once; an
// inactive function's result is a constant to differentiation.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

static double logged[16];
static int nlogged;
static void log_value(const char *tag, double v) {
  if (nlogged < 16)
    logged[nlogged++] = v;
  if (getenv("AD_TEST_VERBOSE"))
    printf("%s = %g\n", tag, v);
}
/* Logs and returns 2 * v: as inactive, its result is a constant. (Not v
 * itself: -O2 would see that the function returns its argument and replace
 * the call's result by the argument before the plugin runs.) */
static double log_and_pass(double v) {
  log_value("pass", v);
  return 2 * v;
}
AD_INACTIVE(log_value);
AD_INACTIVE(log_and_pass);

static double f(double x, double y) {
  double p = x * y;
  log_value("p", p);
  double q = sin(p) + y;
  log_value("q", q);
  return q * x;
}

/* x * x + (2 * x, as a constant) */
static double g(double x) { return x * x + log_and_pass(x); }

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

int main(void) {
  double x = 0.8, y = -1.3, p = x * y, q = sin(p) + y;
  nlogged = 0;
  struct d2 r = __ad_autodiff_d2((void *)f, x, y);
  CHECK_TRUE(nlogged == 2);
  CHECK_CLOSE(logged[0], p, 1e-15);
  CHECK_CLOSE(logged[1], q, 1e-15);
  CHECK_CLOSE(r.dx, cos(p) * y * x + q, 1e-12);
  CHECK_CLOSE(r.dy, (cos(p) * x + 1) * x, 1e-12);

  nlogged = 0;
  double t = __ad_fwddiff((void *)f, x, 1.0, y, 0.0);
  CHECK_TRUE(nlogged == 2);
  CHECK_CLOSE(t, r.dx, 1e-12);

  nlogged = 0;
  CHECK_CLOSE(__ad_autodiff((void *)g, x), 2 * x, 1e-15);
  CHECK_CLOSE(__ad_fwddiff((void *)g, x, 1.0), 2 * x, 1e-15);
  CHECK_TRUE(nlogged == 2 && logged[0] == x && logged[1] == x);
  return ad_test_finish();
}
