// Nested derivatives: second derivatives of scalar functions in all four
// combinations of modes. f_r(x) = __ad_autodiff(f, x) and f_f(x) =
// __ad_fwddiff(f, x, 1) are first derivatives; differentiating them again
// in reverse (rr, rf) and forward mode (fr, ff) must give f''(x): the closed
// form, and a central finite difference of the first derivative. The inner
// call is lowered first, so the outer derivative differentiates the inner
// gradient's code, tape included: the loop whose trip count depends on x
// records a block per iteration, and the tangents and adjoints of those
// records are what the outer derivatives need (drop them and the loop
// checks fail). The branch is taken both ways.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"

#define TOL_EXACT 1e-11
#define TOL_FD 1e-6

/* f's first derivatives in both modes, as functions of x alone. */
#define FIRST_DERIVATIVES(f)                                                   \
  static double f##_r(double x) { return __ad_autodiff((void *)f, x); }        \
  static double f##_f(double x) { return __ad_fwddiff((void *)f, x, 1.0); }

/* The four second derivatives against the closed form, and the finite
 * difference of the reverse-mode first derivative against it too. */
#define CHECK_SECOND(f, x, want)                                               \
  do {                                                                         \
    double want_ = (want);                                                     \
    CHECK_CLOSE(__ad_autodiff((void *)f##_r, (x)), want_, TOL_EXACT);          \
    CHECK_CLOSE(__ad_fwddiff((void *)f##_r, (x), 1.0), want_, TOL_EXACT);      \
    CHECK_CLOSE(__ad_autodiff((void *)f##_f, (x)), want_, TOL_EXACT);          \
    CHECK_CLOSE(__ad_fwddiff((void *)f##_f, (x), 1.0), want_, TOL_EXACT);      \
    CHECK_CLOSE(ad_fd1(f##_r, (x)), want_, TOL_FD);                            \
  } while (0)

/* 3x^4 - 2x^3 + x - 5: f'' = 36x^2 - 12x. */
static double poly(double x) {
  return 3 * x * x * x * x - 2 * x * x * x + x - 5;
}
FIRST_DERIVATIVES(poly)

/* e^x sin x: f'' = 2 e^x cos x. */
static double expsin(double x) { return exp(x) * sin(x); }
FIRST_DERIVATIVES(expsin)

/* x log x: f'' = 1/x. */
static double xlogx(double x) { return x * log(x); }
FIRST_DERIVATIVES(xlogx)

/* x^k for the first k with x^k >= 50: a loop whose trip count depends on x
 * (one tape record per iteration). f'' = k (k-1) x^(k-2). */
static double power_until(double x) {
  double p = 1;
  while (p < 50)
    p *= x;
  return p;
}
FIRST_DERIVATIVES(power_until)
static double power_until_second(double x) {
  int k = 0;
  for (double p = 1; p < 50; p *= x)
    k++;
  return k * (k - 1) * pow(x, k - 2);
}

/* A recurrence with sin, iterated until it crosses a threshold (23 to 29
 * iterations here): the four against each other and finite differences. */
static double crossing(double x) {
  double s = x;
  for (int k = 0; s < 10 && k < 1000; k++)
    s = 1.1 * s + 0.3 * sin(s) * x;
  return s;
}
FIRST_DERIVATIVES(crossing)

/* The same through a helper that is not inlined: the gradient calls its
 * split derivative, whose records go on the gradient's tape, and the outer
 * derivatives differentiate both halves (the helper's augmented forward
 * sweep pushes, its adjoint pops). */
__attribute__((noinline)) static double step(double s, double x) {
  return s > 3 ? 1.1 * s + 0.3 * sin(s) * x : 1.2 * s + 0.2 * x * x;
}
static double via_helper(double x) {
  double s = x;
  for (int k = 0; s < 10 && k < 1000; k++)
    s = step(s, x);
  return s;
}
FIRST_DERIVATIVES(via_helper)

/* A branch on x: f'' = 6x above 1, 2 cos x - x sin x below. */
static double branch(double x) { return x > 1 ? x * x * x : sin(x) * x; }
FIRST_DERIVATIVES(branch)

int main(void) {
  for (double x = -1.5; x <= 1.5; x += 0.75) {
    CHECK_SECOND(poly, x, 36 * x * x - 12 * x);
    CHECK_SECOND(expsin, x, 2 * exp(x) * cos(x));
  }
  for (double x = 0.25; x <= 4; x *= 2)
    CHECK_SECOND(xlogx, x, 1 / x);
  /* Trip counts from 2 (x = 7.5) to 12 (x = 1.4). */
  for (double x = 1.4; x <= 8; x += 0.7)
    CHECK_SECOND(power_until, x, power_until_second(x));
  for (double x = 0.3; x <= 1.2; x += 0.3) {
    double rr = __ad_autodiff((void *)crossing_r, x);
    CHECK_CLOSE(rr, ad_fd1(crossing_r, x), TOL_FD);
    CHECK_CLOSE(__ad_fwddiff((void *)crossing_r, x, 1.0), rr, TOL_EXACT);
    CHECK_CLOSE(__ad_autodiff((void *)crossing_f, x), rr, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)crossing_f, x, 1.0), rr, TOL_EXACT);
  }
  for (double x = 0.3; x <= 1.2; x += 0.3) {
    double rr = __ad_autodiff((void *)via_helper_r, x);
    CHECK_CLOSE(rr, ad_fd1(via_helper_r, x), TOL_FD);
    CHECK_CLOSE(__ad_fwddiff((void *)via_helper_r, x, 1.0), rr, TOL_EXACT);
    CHECK_CLOSE(__ad_autodiff((void *)via_helper_f, x), rr, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)via_helper_f, x, 1.0), rr, TOL_EXACT);
  }
  CHECK_SECOND(branch, 1.7, 6 * 1.7);
  CHECK_SECOND(branch, 0.4, 2 * cos(0.4) - 0.4 * sin(0.4));
  CHECK_SECOND(branch, -2.0, 2 * cos(-2.0) + 2.0 * sin(-2.0));
  return ad_test_finish();
}
