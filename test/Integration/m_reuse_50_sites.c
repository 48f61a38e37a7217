// Derivative reuse: a helper called from 50 sites with the same activity
// (both arguments active) is synthesized once, as one augmented forward sweep
// and one adjoint, and every site calls those; a second entry-point call of
// the same function reuses its gradient (forward mode adds a tangent of
// many and one of helper: 5 functions). -Rpass=ad reports each entry point
// and the module's totals. The gradient is checked against its closed form
// and central finite differences, and forward mode against reverse mode.
// RUN: %clang_ad -O0 -S -emit-llvm -Rpass=ad %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

// IR-COUNT-1: define internal {{.*}}@helper.ad.augmented(
// IR-NOT:     define internal {{.*}}@helper.ad.augmented
// IR-COUNT-1: define internal {{.*}}@helper.ad.adjoint(
// IR-NOT:     define internal {{.*}}@helper.ad.adjoint
__attribute__((noinline)) static double helper(double a, double b) {
  return a * b + a;
}

#define N 11
#define S5(i)                                                                  \
  helper(x[i], x[i + 1]) + helper(x[i + 1], x[i]) + helper(x[i], x[i]) +       \
      helper(x[i + 1], x[i + 1]) + helper(x[i], x[i + 1] * 2)
// 10 x 5 = 50 call sites.
static double many(const double *x) {
  return S5(0) + S5(1) + S5(2) + S5(3) + S5(4) + S5(5) + S5(6) + S5(7) +
         S5(8) + S5(9);
}

// d(many)/dx[j]: each S5(i) = 4 a b + a^2 + b^2 + 3 a + 2 b (a = x[i],
// b = x[i+1]) -> d/da = 4b + 2a + 3, d/db = 4a + 2b + 2.
static void closed_form(const double *x, double *g) {
  for (int j = 0; j < N; j++)
    g[j] = 0;
  for (int i = 0; i < 10; i++) {
    double a = x[i], b = x[i + 1];
    g[i] += 4 * b + 2 * a + 3;
    g[i + 1] += 4 * a + 2 * b + 2;
  }
}

// One of grad1 and grad2 (on one line) synthesizes the gradient, the other
// reuses it.
// REMARK-DAG: m_reuse_50_sites.c:[[@LINE+2]]:{{[0-9]+}}: remark: reverse-mode derivative of 'many': synthesized 3 new function(s)
// REMARK-DAG: m_reuse_50_sites.c:[[@LINE+1]]:{{[0-9]+}}: remark: reverse-mode derivative of 'many': reused
static void grad1(const double *x, double *dx) { __ad_autodiff((void *)many, x, dx); } static void grad2(const double *x, double *dx) { __ad_autodiff((void *)many, x, dx); }
// REMARK-DAG: remark: 3 differentiation call(s): 5 derivative function(s) synthesized
// The rule table resolves helper's signature once and looks each of the 51
// call sites (50 of helper, one other) up once, however often the analyses
// and the two modes ask (RuleTable.h):
// REMARK-DAG: remark: rule table: 2 callee signature(s) resolved for 51 call site(s);
static double dir(const double *x, const double *v) {
  return __ad_fwddiff((void *)many, x, v);
}

int main(void) {
  double x[N], g1[N] = {0}, g2[N] = {0}, want[N], v[N];
  for (int j = 0; j < N; j++) {
    x[j] = ad_test_uniform(-2, 2);
    v[j] = ad_test_uniform(-1, 1);
  }
  grad1(x, g1);
  grad2(x, g2);
  closed_form(x, want);
  double jv = 0;
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(g1[j], want[j], 1e-12);
    CHECK_CLOSE(g2[j], want[j], 1e-12);
    double h = 1e-6, x0 = x[j];
    x[j] = x0 + h;
    double fp = many(x);
    x[j] = x0 - h;
    double fm = many(x);
    x[j] = x0;
    CHECK_CLOSE(g1[j], (fp - fm) / (2 * h), 1e-6);
    jv += g1[j] * v[j];
  }
  CHECK_CLOSE(dir(x, v), jv, 1e-12);
  return ad_test_finish();
}
