// Works (keep it working): loads of values an earlier loop stored, recomputed
// from what was stored instead of cached (primal/StoreForwarding.cpp).
// ADBench's GMM computes xc = x - mu into a scratch buffer per point and
// component, then reads xc[i] in Q xc's diagonal and in its triangle; the
// next component rewrites xc, so the gradient cached every xc[i]. The
// gradient's canonical primal now evaluates x[i] - mu[i] again where xc[i]
// was loaded, and its reverse sweep reloads x and mu. Where that would be
// wrong, the loads stay (and are cached): a write to xc between the loops,
// a storing loop shorter than the reading one, a write to what the stored
// expression read. Each is checked against central differences.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="values an earlier loop stored"
// The diagonal's xc[i] and the triangle's (loaded once per row at -O2); the
// other functions' loads stay.
// CHECK: remark: gradient of 'gmm_body' recomputes 2 load(s) of values an earlier loop stored
#include <ad.h>
#include "ad_test.h"

#include <stdlib.h>

#define D 5
#define K 3
#define NPTS 2
#define TRI (D * (D - 1) / 2)

/* GMM's per-point, per-component body: |Q_c (x_p - mu_c)|^2 with Q_c =
 * diag(qd_c) + strict lower ltri_c (column by column, a running index). */
double gmm_body(const double *mu, const double *qd, const double *ltri,
                const double *x, int d, int k, int n) {
  double *xc = malloc(sizeof(double) * d), *y = malloc(sizeof(double) * d);
  double r = 0;
  for (int p = 0; p < n; p++)
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < d; i++)
        xc[i] = x[p * d + i] - mu[c * d + i];
      for (int i = 0; i < d; i++)
        y[i] = qd[c * d + i] * xc[i];
      int L = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++) {
          y[j] += ltri[c * TRI + L] * xc[i];
          L++;
        }
      for (int i = 0; i < d; i++)
        r += y[i] * y[i] * (1.0 + 0.1 * c);
    }
  free(xc), free(y);
  return r;
}

/* xc[j0] is scaled between the loops: xc[j0] is not what the first loop
 * stored. */
double overwritten(const double *mu, const double *w, int d, int k, int j0) {
  double *xc = malloc(sizeof(double) * d);
  double r = 0;
  for (int c = 0; c < k; c++) {
    for (int i = 0; i < d; i++)
      xc[i] = 1.5 - mu[c * d + i];
    xc[j0] *= 3;
    for (int i = 0; i < d; i++)
      r += w[i] * xc[i] * xc[i];
  }
  free(xc);
  return r;
}

/* The storing loop runs m < d iterations: xc[m..d) keeps what was there
 * before. (A do-while, so that the storing loop always runs before the
 * reading one: only the trip counts tell them apart.) */
double shorter(const double *mu, const double *w, int d, int k, int m) {
  double *xc = malloc(sizeof(double) * d);
  double r = 0;
  for (int i = 0; i < d; i++)
    xc[i] = w[i];
  for (int c = 0; c < k; c++) {
    int i = 0;
    do {
      xc[i] = 1.5 - mu[c * d + i];
      i++;
    } while (i < m);
    for (int i = 0; i < d; i++)
      r += w[i] * xc[i] * xc[i];
  }
  free(xc);
  return r;
}

/* What the stored expression read (a copy of mu) changes between the
 * loops. */
double leaf_changed(const double *mu, const double *w, int d, int k) {
  double *xc = malloc(sizeof(double) * d), *m = malloc(sizeof(double) * d * k);
  double r = 0;
  for (int q = 0; q < d * k; q++)
    m[q] = mu[q];
  for (int c = 0; c < k; c++) {
    for (int i = 0; i < d; i++)
      xc[i] = 1.5 - m[c * d + i];
    m[c * d] += 1.0;
    for (int i = 0; i < d; i++)
      r += w[i] * xc[i] * xc[i];
  }
  free(xc), free(m);
  return r;
}

static double MU[K * D], QD[K * D], LT[K * TRI], XS[NPTS * D], W[D];

static double value_gmm(void) { return gmm_body(MU, QD, LT, XS, D, K, NPTS); }
static double value_overwritten(void) { return overwritten(MU, W, D, K, 2); }
static double value_shorter(void) { return shorter(MU, W, D, K, D - 2); }
static double value_leaf_changed(void) { return leaf_changed(MU, W, D, K); }

/* The gradient \p grad of \p value by \p x[0..n) against central
 * differences. */
static void check_fd(double (*value)(void), double *x, const double *grad,
                     int n) {
  double h = 1e-6;
  for (int q = 0; q < n; q++) {
    double s = x[q];
    x[q] = s + h;
    double up = value();
    x[q] = s - h;
    double down = value();
    x[q] = s;
    CHECK_CLOSE(grad[q], (up - down) / (2 * h), 1e-6);
  }
}

int main(void) {
  for (int q = 0; q < K * D; q++) {
    MU[q] = 0.3 * sin(q + 1.0);
    QD[q] = 1.0 + 0.2 * cos(q + 0.5);
  }
  for (int q = 0; q < K * TRI; q++)
    LT[q] = 0.5 * cos(2.0 * q + 0.5);
  for (int q = 0; q < NPTS * D; q++)
    XS[q] = 1.0 + 0.7 * sin(3.0 * q);
  for (int q = 0; q < D; q++)
    W[q] = 0.5 + 0.25 * q;

  double dmu[K * D] = {0}, dqd[K * D] = {0}, dlt[K * TRI] = {0};
  __ad_autodiff((void *)gmm_body, MU, dmu, QD, dqd, LT, dlt, __ad_const, XS, D,
                K, NPTS);
  check_fd(value_gmm, MU, dmu, K * D);
  check_fd(value_gmm, QD, dqd, K * D);
  check_fd(value_gmm, LT, dlt, K * TRI);

  double d1[K * D] = {0}, d2[K * D] = {0}, d3[K * D] = {0};
  __ad_autodiff((void *)overwritten, MU, d1, __ad_const, W, D, K, 2);
  check_fd(value_overwritten, MU, d1, K * D);
  __ad_autodiff((void *)shorter, MU, d2, __ad_const, W, D, K, D - 2);
  check_fd(value_shorter, MU, d2, K * D);
  __ad_autodiff((void *)leaf_changed, MU, d3, __ad_const, W, D, K);
  check_fd(value_leaf_changed, MU, d3, K * D);
  return ad_test_failures;
}
