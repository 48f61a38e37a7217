// Works (keep it working): forward and reverse mode of the same function agree,
// <J v, w> = <v, J^T w>, and both match a finite difference: an RK4 integrator
// updating its state in place, calling a RHS helper four times per step, with a
// heap scratch buffer and an early exit, over 200 steps; parameters and state
// both active.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <string.h>
#define NS 4
/* Lotka-Volterra-ish RHS with parameters p */
static void rhs(const double *y, const double *p, double *dy) {
  dy[0] = p[0] * y[0] - p[1] * y[0] * y[1];
  dy[1] = -p[2] * y[1] + p[3] * y[0] * y[1];
  dy[2] = sin(y[3]) * y[2];
  dy[3] = -y[2] + 0.1 * y[3] * y[3];
}
/* integrate in place with RK4, unknown step count, heap scratch */
static void rk4(double *y, const double *p, double h, int steps) {
  double *k = malloc(4 * NS * sizeof *k), t[NS];
  for (int s = 0; s < steps; s++) {
    rhs(y, p, k);
    for (int i = 0; i < NS; i++) t[i] = y[i] + 0.5 * h * k[i];
    rhs(t, p, k + NS);
    for (int i = 0; i < NS; i++) t[i] = y[i] + 0.5 * h * k[NS + i];
    rhs(t, p, k + 2 * NS);
    for (int i = 0; i < NS; i++) t[i] = y[i] + h * k[2 * NS + i];
    rhs(t, p, k + 3 * NS);
    for (int i = 0; i < NS; i++) y[i] += h / 6 * (k[i] + 2 * k[NS + i] + 2 * k[2 * NS + i] + k[3 * NS + i]);
    if (fabs(y[0]) > 1e6) break;
  }
  free(k);
}
int main(void) {
  double y0[NS] = {1.0, 0.5, 0.3, -0.2}, p[4] = {1.1, 0.4, 0.9, 0.3};
  for (int trial = 0; trial < 3; trial++) {
    double v[NS], vp[4], w[NS];
    for (int i = 0; i < NS; i++) { v[i] = ad_test_uniform(-1, 1); w[i] = ad_test_uniform(-1, 1); }
    for (int i = 0; i < 4; i++) vp[i] = ad_test_uniform(-1, 1);
    /* forward: Jv */
    double y[NS], ty[NS], tp[4];
    memcpy(y, y0, sizeof y); memcpy(ty, v, sizeof ty); memcpy(tp, vp, sizeof tp);
    __ad_fwddiff((void *)rk4, y, ty, p, tp, 0.01, 0.0, 200);
    /* reverse: J^T w */
    double yr[NS], dy[NS], dp[4] = {0};
    memcpy(yr, y0, sizeof yr); memcpy(dy, w, sizeof dy);
    double dh = __ad_autodiff((void *)rk4, yr, dy, p, dp, __ad_const, 0.01, 200);
    (void)dh;
    double lhs = 0, rhs_ = 0;
    for (int i = 0; i < NS; i++) { lhs += ty[i] * w[i]; rhs_ += v[i] * dy[i]; CHECK_CLOSE(yr[i], y[i], 0); }
    for (int i = 0; i < 4; i++) rhs_ += vp[i] * dp[i];
    CHECK_CLOSE(lhs, rhs_, 1e-10);
    /* FD of <w, y(y0 + e v, p + e vp)> */
    double e = 1e-6, yp[NS], ym[NS], pp[4], pm[4], fd = 0;
    for (int i = 0; i < NS; i++) { yp[i] = y0[i] + e * v[i]; ym[i] = y0[i] - e * v[i]; }
    for (int i = 0; i < 4; i++) { pp[i] = p[i] + e * vp[i]; pm[i] = p[i] - e * vp[i]; }
    rk4(yp, pp, 0.01, 200); rk4(ym, pm, 0.01, 200);
    for (int i = 0; i < NS; i++) fd += w[i] * (yp[i] - ym[i]) / (2 * e);
    CHECK_CLOSE(lhs, fd, 1e-6);
  }
  return ad_test_finish();
}
