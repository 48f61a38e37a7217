// Regression: the address of a static const table stored into a local struct
// (a "view" object { const double *coef; int n; }) whose field a helper then
// reads. At -O0 the derivative dereferenced a null shadow pointer (SIGSEGV in
// eval.ad.adjoint and in the forward tangent); -O1 and up folded it away.
// Read-only tables carry no derivative, so both modes must just work.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

static const double C3[3] = {1.0, 2.0, 3.0};
static double T4[4] = {0.5, -1.0, 0.25, 2.0}; /* never written: also read-only */

typedef struct {
  const double *c;
  int n;
} Poly;

static double eval(const Poly *p, double x) {
  double r = 0;
  for (int i = p->n - 1; i >= 0; i--)
    r = r * x + p->c[i];
  return r;
}
__attribute__((noinline)) static double eval_ni(const Poly *p, double x) { return eval(p, x); }

/* x * (1 + 2x + 3x^2) */
static double f(double x) {
  Poly p = {C3, 3};
  return eval(&p, x) * x;
}
/* (0.5 - x + 0.25x^2 + 2x^3) * sin(x), through a noinline helper */
static double g(double x) {
  Poly p = {T4, 4};
  return eval_ni(&p, x) * sin(x);
}
/* an array of views */
static double h(double x) {
  Poly ps[2] = {{C3, 3}, {T4, 4}};
  double s = 0;
  for (int k = 0; k < 2; k++)
    s += eval(&ps[k], x) * (k + 1);
  return s;
}

static double f_fd(double x) { return f(x); }
static double g_fd(double x) { return g(x); }
static double h_fd(double x) { return h(x); }

int main(void) {
  for (double x = -1.3; x < 1.5; x += 0.55) {
    double df = 1 + 4 * x + 9 * x * x;
    double p4 = 0.5 - x + 0.25 * x * x + 2 * x * x * x, dp4 = -1 + 0.5 * x + 6 * x * x;
    double dg = dp4 * sin(x) + p4 * cos(x);
    double dh = (2 + 6 * x) + 2 * dp4;
    CHECK_CLOSE(__ad_autodiff((void *)f, x), df, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 1.0), df, 1e-12);
    CHECK_CLOSE(df, ad_fd1(f_fd, x), 1e-6);
    CHECK_CLOSE(__ad_autodiff((void *)g, x), dg, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)g, x, 1.0), dg, 1e-12);
    CHECK_CLOSE(dg, ad_fd1(g_fd, x), 1e-6);
    CHECK_CLOSE(__ad_autodiff((void *)h, x), dh, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)h, x, 1.0), dh, 1e-12);
    CHECK_CLOSE(dh, ad_fd1(h_fd, x), 1e-6);
  }
  return ad_test_finish();
}
