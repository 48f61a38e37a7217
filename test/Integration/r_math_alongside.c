// Works (keep it working): the partial of sin is cos of the same argument,
// and that of cos is -sin: where the primal computes both (a rotation by
// an angle, like ADBench's BA residual), the derivative uses the primal's
// value instead of calling the function again (PrimalAccessor::computed,
// the emitters' primalAlongside), as a handwritten derivative shares them;
// sinh and cosh likewise. Only a call of the same argument counts, and only
// one whose value the derivative has there: in reverse mode one that ran
// whenever the call did (its block or one dominating it) and is at hand
// without a new tape field; in forward mode one before the call in its
// block. Each gradient is checked against central differences and the
// other mode, at -O0 and -O2 under valgrind.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=ROT < %t.ll
// RUN: FileCheck %s --check-prefix=HYP < %t.ll
// The rotation's reverse sweep calls no sine or cosine of its own: the
// only ones are the primal's.
// ROT-LABEL: define internal {{.*}} @rotate.ad.gradient(
// ROT-NOT:   @llvm.{{sin|cos}}.
// ROT-NOT:   @sincos
// ROT:       {{^}$}}
// A loop whose body computes both: both are recomputed in the reverse
// sweep (libm calls in a loop), once each.
// HYP-LABEL: define internal {{.*}} @hyperbolic.ad.gradient(
// HYP-COUNT-1: @llvm.sinh.
// HYP-NOT:   @llvm.sinh.
// HYP:       {{^}$}}
#include <ad.h>
#include "ad_test.h"

/* The angle's cosine and sine, computed once on one side of a branch (the
 * record of a block that does not dominate the return). */
double rotate(double a, double x, double y) {
  if (a != 0) {
    double c = cos(a), s = sin(a);
    return (x * c - y * s) * (x * s + y * c) + c;
  }
  return x * y;
}

/* cos of y, sin of x: neither is the other's partial; nor is exp(x). */
double other_arguments(double x, double y) {
  return cos(y) * sin(x) + sin(y) + exp(x);
}

/* cos(x) computed only when flag is set; sin(x) always: cos's value is
 * not there for sin's partial when flag is 0. */
double not_dominating(double x, int flag) {
  double c = 0.25;
  if (flag)
    c = cos(x);
  return c * sin(x) + x;
}

/* sinh and cosh of the same element, in a loop. */
double hyperbolic(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sinh(x[i]) * 0.5 + cosh(x[i]) * x[i];
  return s;
}

static double rotate_a(double a) { return rotate(a, 0.7, -1.3); }
static double other_x(double x) { return other_arguments(x, 0.9); }
static double other_y(double y) { return other_arguments(0.4, y); }
static int flag;
static double not_dominating_x(double x) { return not_dominating(x, flag); }
static double hyperbolic_x(double *x, int n) { return hyperbolic(x, n); }

int main(void) {
  double a = 0.4;
  double da = __ad_autodiff((void *)rotate, a, __ad_const, 0.7, __ad_const,
                            -1.3);
  CHECK_CLOSE(da, ad_fd1(rotate_a, a), 1e-6);
  CHECK_CLOSE(da,
              __ad_fwddiff((void *)rotate, a, 1.0, __ad_const, 0.7,
                           __ad_const, -1.3),
              1e-12);

  double dx = __ad_autodiff((void *)other_arguments, 0.4, __ad_const, 0.9);
  CHECK_CLOSE(dx, ad_fd1(other_x, 0.4), 1e-6);
  CHECK_CLOSE(dx, __ad_fwddiff((void *)other_arguments, 0.4, 1.0, __ad_const,
                               0.9),
              1e-12);
  double dy = __ad_autodiff((void *)other_arguments, __ad_const, 0.4, 0.9);
  CHECK_CLOSE(dy, ad_fd1(other_y, 0.9), 1e-6);
  CHECK_CLOSE(dy, __ad_fwddiff((void *)other_arguments, __ad_const, 0.4, 0.9,
                               1.0),
              1e-12);

  for (flag = 0; flag < 2; flag++) {
    double d = __ad_autodiff((void *)not_dominating, 0.6, __ad_const, flag);
    CHECK_CLOSE(d, ad_fd1(not_dominating_x, 0.6), 1e-6);
    CHECK_CLOSE(d, __ad_fwddiff((void *)not_dominating, 0.6, 1.0, __ad_const,
                                flag),
                1e-12);
  }

  enum { N = 4 };
  double x[N] = {0.3, -0.8, 1.2, 0.05}, g[N] = {0}, t[N] = {1, -1, 0.5, 2};
  /* A count the optimizer cannot see: passed as the constant 4, it is
   * folded into the gradient, whose loop is then unrolled, and HYP would
   * count four copies of the body. */
  volatile int count = N;
  __ad_autodiff((void *)hyperbolic, x, g, __ad_const, (int)count);
  double dot = 0;
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], ad_fd_array(hyperbolic_x, x, N, i), 1e-6);
    dot += g[i] * t[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)hyperbolic, x, t, __ad_const, N), dot,
              1e-12);
  return ad_test_finish();
}
