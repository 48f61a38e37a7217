// Custom rules for functions with no body in this module: the Bessel
// functions j0 and jn come from libm, and the plugin has no built-in rule for
// them. d/dx j0(x) = -j1(x); d/dx jn(n, x) = (j(n-1)(x) - j(n+1)(x)) / 2, with
// jn's integer order passed by value only. Both modes, vs the closed forms,
// central finite differences and each other.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

static double j0_fwd(double x, double dx) { return -j1(x) * dx; }
static void j0_rev(double x, double dret, double *dx) { *dx += -j1(x) * dret; }
AD_FORWARD_RULE(j0, j0_fwd);
AD_REVERSE_RULE(j0, j0_rev);

static double djn(int n, double x) { return 0.5 * (jn(n - 1, x) - jn(n + 1, x)); }
static double jn_fwd(int n, double x, double dx) { return djn(n, x) * dx; }
static void jn_rev(int n, double x, double dret, double *dx) {
  *dx += djn(n, x) * dret;
}
AD_FORWARD_RULE(jn, jn_fwd);
AD_REVERSE_RULE(jn, jn_rev);

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

/* x * j0(x * y): the rule's result is used in further arithmetic. */
static double f(double x, double y) { return x * j0(x * y); }
static double g(double x) {
  double s = 0;
  for (int n = 1; n <= 3; n++)
    s += jn(n, x) / n;
  return s;
}

static double fx(double x) { return f(x, 0.7); }

int main(void) {
  for (int k = 0; k < 5; k++) {
    double x = ad_test_uniform(0.2, 4), y = 0.7;
    struct d2 r = __ad_autodiff_d2((void *)f, x, y);
    double dfx = j0(x * y) - x * y * j1(x * y);
    double dfy = -x * x * j1(x * y);
    CHECK_CLOSE(r.dx, dfx, 1e-12);
    CHECK_CLOSE(r.dy, dfy, 1e-12);
    CHECK_CLOSE(r.dx, ad_fd1(fx, x), 1e-6);
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 1.0, y, 0.0), dfx, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 0.0, y, 1.0), dfy, 1e-12);

    double dg = djn(1, x) + djn(2, x) / 2 + djn(3, x) / 3;
    CHECK_CLOSE(__ad_autodiff((void *)g, x), dg, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)g, x, 1.0), dg, 1e-12);
    CHECK_CLOSE(dg, ad_fd1(g, x), 1e-6);
  }
  return ad_test_finish();
}
