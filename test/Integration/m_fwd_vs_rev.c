// Forward vs reverse on f: R^5 -> R^4 written to memory: <J v, w> == <v, J^T w>, and both vs FD.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define NX 5
#define NY 4

void __ad_autodiff_void(void *, ...);
void __ad_fwddiff_void(void *, ...);

static void f(const double *x, double *y) {
  y[0] = x[0] * x[1] + sin(x[2]);
  y[1] = exp(x[3]) * x[4] - x[0];
  y[2] = 0;
  for (int i = 0; i < NX; i++)
    y[2] += x[i] * x[i] * (i + 1);
  y[3] = x[1] / (1 + x[4] * x[4]) * cos(x[0]) + y[0] * y[1];
}

/* <w, f(x)>, the scalar whose gradient J^T w is */
static double W[NY];
static double wf(double *x, int n) {
  double y[NY], s = 0;
  (void)n;
  f(x, y);
  for (int j = 0; j < NY; j++)
    s += W[j] * y[j];
  return s;
}

int main(void) {
  double x[NX], y[NY], J[NY][NX], h = 1e-6;
  for (int i = 0; i < NX; i++)
    x[i] = ad_test_uniform(-1, 1);

  /* Full Jacobian by columns (forward, unit tangents) and by rows (reverse, unit seeds). */
  for (int i = 0; i < NX; i++) {
    double e[NX] = {0}, dy[NY] = {0};
    e[i] = 1;
    __ad_fwddiff_void((void *)f, x, e, y, dy);
    for (int j = 0; j < NY; j++)
      J[j][i] = dy[j];
  }
  for (int j = 0; j < NY; j++) {
    double dx[NX] = {0}, dy[NY] = {0};
    dy[j] = 1;
    __ad_autodiff_void((void *)f, x, dx, y, dy);
    for (int i = 0; i < NX; i++)
      CHECK_CLOSE(dx[i], J[j][i], 1e-10);
    CHECK_TRUE(dy[j] == 0.0);
  }
  /* A few entries in closed form. */
  CHECK_CLOSE(J[0][0], x[1], 1e-10);
  CHECK_CLOSE(J[0][2], cos(x[2]), 1e-10);
  CHECK_CLOSE(J[1][3], exp(x[3]) * x[4], 1e-10);
  CHECK_CLOSE(J[2][4], 10 * x[4], 1e-10);
  double y0 = x[0] * x[1] + sin(x[2]), y1 = exp(x[3]) * x[4] - x[0];
  CHECK_CLOSE(J[3][2], y1 * cos(x[2]), 1e-10);

  for (int trial = 0; trial < 5; trial++) {
    double v[NX], dx[NX] = {0}, dy[NY] = {0}, jv[NY] = {0}, xp[NX], xm[NX], yp[NY], ym[NY];
    for (int i = 0; i < NX; i++) {
      v[i] = ad_test_uniform(-1, 1);
      xp[i] = x[i] + h * v[i];
      xm[i] = x[i] - h * v[i];
    }
    for (int j = 0; j < NY; j++)
      W[j] = ad_test_uniform(-1, 1);

    __ad_fwddiff_void((void *)f, x, v, y, jv);
    for (int j = 0; j < NY; j++)
      dy[j] = W[j];
    __ad_autodiff_void((void *)f, x, dx, y, dy);

    double lhs = 0, rhs = 0;
    for (int j = 0; j < NY; j++)
      lhs += jv[j] * W[j];
    for (int i = 0; i < NX; i++)
      rhs += v[i] * dx[i];
    CHECK_CLOSE(lhs, rhs, 1e-10);

    f(xp, yp);
    f(xm, ym);
    for (int j = 0; j < NY; j++)
      CHECK_CLOSE(jv[j], (yp[j] - ym[j]) / (2 * h), 1e-5);
    for (int i = 0; i < NX; i++)
      CHECK_CLOSE(dx[i], ad_fd_array(wf, x, NX, i), 1e-5);
    CHECK_CLOSE(y[0], y0, 1e-14);
    CHECK_CLOSE(y[1], y1, 1e-14);
  }

  return ad_test_finish();
}
