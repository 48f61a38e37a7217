// Nested derivatives three levels deep: every one of the eight combinations
// of modes (reverse or forward at each level) gives the third derivative of
//   e^x sin x       (closed form 2 e^x (cos x - sin x)), and of
//   x^k for the first k with x^k >= 50, a loop whose trip count depends on x
//                   (k (k-1) (k-2) x^(k-3)),
// and agrees with a central difference of a second derivative. The level
// in the middle differentiates a derivative and is itself differentiated:
// the inner tape's records get shadows twice over.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define TOL_EXACT 1e-10
#define TOL_FD 1e-6

static double expsin(double x) { return exp(x) * sin(x); }

static double power_until(double x) {
  double p = 1;
  while (p < 50)
    p *= x;
  return p;
}

static double power_until_third(double x) {
  int k = 0;
  for (double p = 1; p < 50; p *= x)
    k++;
  return k * (k - 1) * (k - 2) * pow(x, k - 3);
}

/* Level 1: f_r, f_f. Level 2: f_rr, f_rf, f_fr, f_ff (outer mode first:
 * f_fr is the forward derivative of f_r). Level 3 is taken in main. */
#define DERIVATIVES(f)                                                         \
  static double f##_r(double x) { return __ad_autodiff((void *)f, x); }        \
  static double f##_f(double x) { return __ad_fwddiff((void *)f, x, 1.0); }    \
  static double f##_rr(double x) { return __ad_autodiff((void *)f##_r, x); }   \
  static double f##_rf(double x) { return __ad_autodiff((void *)f##_f, x); }   \
  static double f##_fr(double x) {                                             \
    return __ad_fwddiff((void *)f##_r, x, 1.0);                                \
  }                                                                            \
  static double f##_ff(double x) { return __ad_fwddiff((void *)f##_f, x, 1.0); }
DERIVATIVES(expsin)
DERIVATIVES(power_until)

#define CHECK_THIRD(f, x, want)                                                \
  do {                                                                         \
    double want_ = (want);                                                     \
    CHECK_CLOSE(__ad_autodiff((void *)f##_rr, (x)), want_, TOL_EXACT);         \
    CHECK_CLOSE(__ad_autodiff((void *)f##_rf, (x)), want_, TOL_EXACT);         \
    CHECK_CLOSE(__ad_autodiff((void *)f##_fr, (x)), want_, TOL_EXACT);         \
    CHECK_CLOSE(__ad_autodiff((void *)f##_ff, (x)), want_, TOL_EXACT);         \
    CHECK_CLOSE(__ad_fwddiff((void *)f##_rr, (x), 1.0), want_, TOL_EXACT);     \
    CHECK_CLOSE(__ad_fwddiff((void *)f##_rf, (x), 1.0), want_, TOL_EXACT);     \
    CHECK_CLOSE(__ad_fwddiff((void *)f##_fr, (x), 1.0), want_, TOL_EXACT);     \
    CHECK_CLOSE(__ad_fwddiff((void *)f##_ff, (x), 1.0), want_, TOL_EXACT);     \
    CHECK_CLOSE(ad_fd1(f##_fr, (x)), want_, TOL_FD);                           \
  } while (0)

int main(void) {
  for (double x = -1.2; x <= 1.2; x += 0.6)
    CHECK_THIRD(expsin, x, 2 * exp(x) * (cos(x) - sin(x)));
  /* Trip counts from 10 (x = 1.5) down to 4. */
  for (double x = 1.5; x <= 3.7; x += 0.55)
    CHECK_THIRD(power_until, x, power_until_third(x));
  return ad_test_finish();
}
