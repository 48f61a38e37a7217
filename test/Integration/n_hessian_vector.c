// Nested derivatives: Hessian-vector products of Rosenbrock's function in N
// dimensions, four ways, against the closed-form Hessian:
//   forward over reverse: the tangent of grad(x, g), which zeroes g and calls
//     __ad_autodiff(rosen, x, g) (the tangent of what it writes is H v);
//   reverse over forward: the gradient of dirder(x, v) = __ad_fwddiff(rosen,
//     x, v), v marked __ad_const in the outer call;
//   reverse over reverse: the gradient of <grad f(x), v>, where the inner
//     gradient goes into a variable-length local array g[n];
//   forward over forward: H e_i . v, column by column.
// Then a function with data-dependent control flow and tape records (a loop
// that runs until a sum crosses a bound, a branch on the data) has no closed
// form: forward over reverse, reverse over forward and reverse over
// reverse must agree, the Hessian must be symmetric (<w, H v> = <v, H w>),
// and H v must match central differences of the gradient.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include <string.h>
#include "ad_test.h"

#define N 8
#define TOL_EXACT 1e-11
#define TOL_FD 1e-6

void __ad_autodiff_void(void *, ...);
void __ad_fwddiff_void(void *, ...);

static double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

static void rosen_hessian(const double *x, double H[N][N]) {
  memset(H, 0, sizeof(double) * N * N);
  for (int i = 0; i + 1 < N; i++) {
    H[i][i] += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
    H[i + 1][i + 1] += 200;
    H[i][i + 1] -= 400 * x[i];
    H[i + 1][i] -= 400 * x[i];
  }
}

static void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 0;
  __ad_autodiff_void((void *)rosen, x, g, __ad_const, n);
}

static double dirder(const double *x, const double *v, int n) {
  return __ad_fwddiff((void *)rosen, x, v, __ad_const, n);
}

static double grad_dot(const double *x, const double *v, int n) {
  double g[n];
  memset(g, 0, sizeof g);
  __ad_autodiff_void((void *)rosen, x, g, __ad_const, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += g[i] * v[i];
  return s;
}

/* Data-dependent: terms are added until their sum passes a bound that the
 * data sets, and each term takes one of two forms. */
static double bumpy(const double *x, int n) {
  double s = 0;
  int i = 0;
  while (s < 6 && i < 4 * n) {
    double t = x[i % n];
    s += t > 0 ? t * t * exp(0.3 * t) : sin(t) * x[(i + 1) % n] + 1;
    i++;
  }
  return s * s + x[0] * s;
}

static void bumpy_grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 0;
  __ad_autodiff_void((void *)bumpy, x, g, __ad_const, n);
}

static double bumpy_dirder(const double *x, const double *v, int n) {
  return __ad_fwddiff((void *)bumpy, x, v, __ad_const, n);
}

static double bumpy_grad_dot(const double *x, const double *v, int n) {
  double g[n];
  memset(g, 0, sizeof g);
  __ad_autodiff_void((void *)bumpy, x, g, __ad_const, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += g[i] * v[i];
  return s;
}

int main(void) {
  double x[N], v[N], w[N], H[N][N], want[N];
  for (int i = 0; i < N; i++) {
    x[i] = ad_test_uniform(-1.2, 1.2);
    v[i] = ad_test_uniform(-1, 1);
  }
  rosen_hessian(x, H);
  for (int i = 0; i < N; i++) {
    want[i] = 0;
    for (int j = 0; j < N; j++)
      want[i] += H[i][j] * v[j];
  }

  double g[N], fr[N], rf[N] = {0}, rr[N] = {0};
  __ad_fwddiff_void((void *)grad, x, v, g, fr, __ad_const, N);
  __ad_autodiff_void((void *)dirder, x, rf, __ad_const, v, __ad_const, N);
  __ad_autodiff_void((void *)grad_dot, x, rr, __ad_const, v, __ad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    double ff =
        __ad_fwddiff((void *)dirder, x, e, __ad_const, v, __ad_const, N);
    CHECK_CLOSE(fr[i], want[i], TOL_EXACT);
    CHECK_CLOSE(rf[i], want[i], TOL_EXACT);
    CHECK_CLOSE(rr[i], want[i], TOL_EXACT);
    CHECK_CLOSE(ff, want[i], TOL_EXACT);
  }
  /* grad itself, from the same run: the primal of the outer call. */
  double g2[N] = {0};
  __ad_autodiff_void((void *)rosen, x, g2, __ad_const, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(g[i], g2[i], TOL_EXACT);

  /* bumpy, at points where the loop stops after a few terms. */
  for (int trial = 0; trial < 3; trial++) {
    for (int i = 0; i < N; i++) {
      x[i] = ad_test_uniform(-1, 1.5);
      v[i] = ad_test_uniform(-1, 1);
      w[i] = ad_test_uniform(-1, 1);
    }
    double hv[N], hw[N], hv2[N] = {0}, hv3[N] = {0}, dg[N];
    __ad_fwddiff_void((void *)bumpy_grad, x, v, g, hv, __ad_const, N);
    __ad_fwddiff_void((void *)bumpy_grad, x, w, g, hw, __ad_const, N);
    __ad_autodiff_void((void *)bumpy_dirder, x, hv2, __ad_const, v, __ad_const,
                       N);
    __ad_autodiff_void((void *)bumpy_grad_dot, x, hv3, __ad_const, v,
                       __ad_const, N);
    double wHv = 0, vHw = 0;
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(hv[i], hv2[i], TOL_EXACT);
      CHECK_CLOSE(hv[i], hv3[i], TOL_EXACT);
      wHv += w[i] * hv[i];
      vHw += v[i] * hw[i];
    }
    CHECK_CLOSE(wHv, vHw, TOL_EXACT);
    /* H v by central differences of the gradient along v. */
    double h = 1e-6, xp[N], xm[N], gp[N], gm[N];
    for (int i = 0; i < N; i++) {
      xp[i] = x[i] + h * v[i];
      xm[i] = x[i] - h * v[i];
    }
    bumpy_grad(xp, gp, N);
    bumpy_grad(xm, gm, N);
    for (int i = 0; i < N; i++) {
      dg[i] = (gp[i] - gm[i]) / (2 * h);
      CHECK_CLOSE(hv[i], dg[i], TOL_FD);
    }
  }
  return ad_test_finish();
}
