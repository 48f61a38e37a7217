// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks while loops whose exit depends on floating values (Newton, halving, series).
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

/* AD differentiates the executed path. For Newton iterations that path's derivative
 * converges to the implicit derivative, so the closed forms below apply. */
static double newton_sqrt(double a) {
  double x = a > 1.0 ? a : 1.0, prev;
  do {
    prev = x;
    x = 0.5 * (x + a / x);
  } while (fabs(x - prev) > 1e-14 * x);
  return x;
}
/* Lambert W: solve w e^w = a; W'(a) = W / (a (1 + W)). */
static double lambert(double a) {
  double w = log1p(a), step;
  int it = 0;
  do {
    double e = exp(w);
    step = (w * e - a) / (e * (w + 1.0));
    w -= step;
  } while (fabs(step) > 1e-15 * (1.0 + fabs(w)) && ++it < 100);
  return w;
}
/* Halve until |y| <= 1: y = x / 2^k with k depending on x; returns y^2 + y. */
static double shrink(double x) {
  double y = x;
  while (fabs(y) > 1.0)
    y *= 0.5;
  return y * y + y;
}
/* exp by its Taylor series, summed until the terms are negligible. */
static double exp_series(double x) {
  double t = 1.0, s = 1.0, k = 1.0;
  while (fabs(t) > 1e-17 * fabs(s)) {
    t *= x / k;
    s += t;
    k += 1.0;
  }
  return s;
}

int main(void) {
  for (int i = 0; i < 8; i++) {
    double a = exp(ad_test_uniform(log(0.01), log(100.0)));
    double es = 0.5 / sqrt(a);
    CHECK_DERIV(__ad_autodiff((void *)newton_sqrt, a), es, ad_fd1(newton_sqrt, a));
    CHECK_DERIV(__ad_fwddiff((void *)newton_sqrt, a, 1.0), es, ad_fd1(newton_sqrt, a));

    double W = lambert(a), el = W / (a * (1.0 + W));
    CHECK_CLOSE(W * exp(W), a, 1e-13);
    CHECK_DERIV(__ad_autodiff((void *)lambert, a), el, ad_fd1(lambert, a));
    CHECK_DERIV(__ad_fwddiff((void *)lambert, a, 1.0), el, ad_fd1(lambert, a));

    /* Keep |x| away from powers of two, where the trip count changes. */
    double x = ad_test_uniform(-40.0, 40.0);
    int ex;
    double m = fabs(frexp(x, &ex));
    if (m < 0.5 + 1e-4 || m > 1.0 - 1e-4)
      x *= 1.1;
    double y = x;
    while (fabs(y) > 1.0)
      y *= 0.5;
    double eh = (2.0 * y + 1.0) * (y / x); /* y / x = 2^-k */
    CHECK_DERIV(__ad_autodiff((void *)shrink, x), eh, ad_fd1(shrink, x));
    CHECK_DERIV(__ad_fwddiff((void *)shrink, x, 1.0), eh, ad_fd1(shrink, x));

    double z = ad_test_uniform(0.1, 3.0) * (i % 2 ? -1.0 : 1.0);
    CHECK_DERIV(__ad_autodiff((void *)exp_series, z), exp(z), ad_fd1(exp_series, z));
    CHECK_DERIV(__ad_fwddiff((void *)exp_series, z, 1.0), exp(z), ad_fd1(exp_series, z));
  }
  return ad_test_finish();
}
