// A custom rule overrides a function the plugin could differentiate itself:
// stable_log1p computes log(1 + x) accurately for tiny x with Kahan's trick,
// whose derivative by the chain rule is a ratio of roundings (and exactly 1
// wherever 1 + x rounds to 1). The rule gives 1 / (1 + x). A counter in the
// rules checks that they, not the body, were used, once per call, in loops
// and in both modes.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

static double stable_log1p(double x) {
  double u = 1.0 + x;
  if (u == 1.0)
    return x;
  return log(u) * x / (u - 1.0);
}

static int rule_calls;
static double stable_log1p_fwd(double x, double dx) {
  rule_calls++;
  return dx / (1.0 + x);
}
static void stable_log1p_rev(double x, double dret, double *dx) {
  rule_calls++;
  *dx += dret / (1.0 + x);
}
AD_FORWARD_RULE(stable_log1p, stable_log1p_fwd);
AD_REVERSE_RULE(stable_log1p, stable_log1p_rev);

/* sum_i log1p(a_i * x) for a_i = 1e-20, 1e-10, 0.5, 3 */
static const double A[4] = {1e-20, 1e-10, 0.5, 3};
/* Through a called function too: its split derivative holds the rule. */
__attribute__((noinline)) static double term(double a, double x) {
  return stable_log1p(a * x);
}
static double f(double x) {
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += i % 2 ? stable_log1p(A[i] * x) : term(A[i], x);
  return s;
}

int main(void) {
  for (int k = 0; k < 3; k++) {
    double x = ad_test_uniform(0.1, 2);
    double want = 0;
    for (int i = 0; i < 4; i++)
      want += A[i] / (1 + A[i] * x);
    rule_calls = 0;
    double r = __ad_autodiff((void *)f, x);
    CHECK_TRUE(rule_calls == 4);
    rule_calls = 0;
    double t = __ad_fwddiff((void *)f, x, 1.0);
    CHECK_TRUE(rule_calls == 4);
    CHECK_CLOSE(r, want, 1e-14);
    CHECK_CLOSE(t, want, 1e-14);
    CHECK_CLOSE(r, ad_fd1(f, x), 1e-6);
  }
  return ad_test_finish();
}
