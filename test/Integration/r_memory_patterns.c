// Works (keep it working): memory patterns real code uses --
//  * a while loop whose body mallocs and frees a scratch buffer;
//  * helpers returning a pointer into their argument (double *at(double *a, int i));
//  * a dup output written in one loop and read back in another;
//  * static const and never-written static tables read inside f;
//  * double buffering by pointer swap (Jacobi sweeps), heap temporaries;
//  * a data-dependent choice between two dup arrays;
//  * in-place reversal plus an overlapping memmove.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <string.h>
#define NS 16
static double *at(double *a, int i) { return &a[i]; }
static const double *cat(const double *a, int i) { return a + i; }
/* while loop that mallocs/frees scratch each iteration */
static double chunks(const double *x, int n, int k) {
  double s = 0; int i = 0;
  while (i < n) {
    int m = (n - i < k) ? n - i : k;
    double *tmp = malloc(m * sizeof *tmp);
    for (int j = 0; j < m; j++) tmp[j] = x[i + j] * x[i + j];
    double p = 1;
    for (int j = 0; j < m; j++) p *= (1 + tmp[j]);
    s += log(p);
    free(tmp);
    i += m;
  }
  return s;
}
static void via_at(double *a, int n) {
  for (int i = 1; i < n; i++) *at(a, i) += *at(a, i - 1) * *cat(a, i);
}
/* writes out in one loop, reads back in another */
static double twoloops(const double *x, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * out[(i + 1) % n];
  return s;
}
/* Jacobi smoothing with double buffering by pointer swap; result in out */
static void jacobi(const double *in, double *out, int n, int iters) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  memcpy(a, in, n * sizeof *a);
  for (int it = 0; it < iters; it++) {
    b[0] = a[0]; b[n - 1] = a[n - 1];
    for (int i = 1; i < n - 1; i++) b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1] + 0.01 * a[i] * a[i];
    double *t = a; a = b; b = t;
  }
  memcpy(out, a, n * sizeof *a);
  free(a); free(b);
}
/* choose between two dup arrays by a data-dependent select */
static double pick(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p = (x[i] > y[i]) ? x : y;
    s += p[i] * p[(i + 1) % n];
  }
  return s;
}
static void reverse_inplace(double *x, int n) {
  for (int i = 0; i < n / 2; i++) { double t = x[i]; x[i] = x[n - 1 - i] * 2; x[n - 1 - i] = t * t; }
  memmove(x + 1, x, (n - 1) * sizeof *x);
  x[0] = sin(x[1]);
}
static double W[NS];
static double jac_fd(double *x, int n) { double o[NS]; jacobi(x, o, n, 7); double s = 0; for (int i = 0; i < n; i++) s += W[i] * o[i]; return s; }
static double *YP;
static double pick_fdx(double *x, int n) { return pick(x, YP, n); }
static double *XP;
static double pick_fdy(double *y, int n) { return pick(XP, y, n); }
static double rev_fd(double *x, int n) { double t[NS]; memcpy(t, x, n * sizeof *t); reverse_inplace(t, n); double s = 0; for (int i = 0; i < n; i++) s += W[i] * t[i]; return s; }
static const double coef[5] = {1.0, -0.5, 0.25, 2.0, 3.0};
static double table[8] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
static double poly(double x) {
  double r = 0;
  for (int i = 4; i >= 0; i--) r = r * x + coef[i];
  return r * table[(int)(x * 2) & 7];
}
static double chunks_fd(double *x, int n) { return chunks(x, n, 3); }
static double via_at_fd(double *x, int n) { double t[8]; memcpy(t, x, n * sizeof *t); via_at(t, n); double s = 0; for (int i = 0; i < n; i++) s += (i + 1) * t[i]; return s; }
static double twoloops_fd(double *x, int n) { double o[8]; return twoloops(x, o, n); }
static double poly_fd(double x) { return poly(x); }
int main(void) {
  double x[8], dx[8] = {0};
  for (int i = 0; i < 8; i++) x[i] = ad_test_uniform(-1, 1);
  __ad_autodiff((void *)chunks, x, dx, 8, 3);
  for (int i = 0; i < 8; i++) {
    CHECK_CLOSE(dx[i], 2 * x[i] / (1 + x[i] * x[i]), 1e-10);
    CHECK_CLOSE(dx[i], ad_fd_array(chunks_fd, x, 8, i), 1e-6);
  }
  double a[8], da[8];
  for (int i = 0; i < 8; i++) { a[i] = x[i]; da[i] = i + 1; }
  __ad_autodiff((void *)via_at, a, da, 8);
  for (int i = 0; i < 8; i++) CHECK_CLOSE(da[i], ad_fd_array(via_at_fd, x, 8, i), 1e-6);
  double out[8], dout[8] = {0}, dx2[8] = {0};
  __ad_autodiff((void *)twoloops, x, dx2, out, dout, 8);
  for (int i = 0; i < 8; i++) {
    CHECK_CLOSE(dx2[i], 2 * x[i] * (x[(i + 1) % 8] * x[(i + 1) % 8] + x[(i + 7) % 8] * x[(i + 7) % 8]), 1e-10);
    CHECK_CLOSE(dx2[i], ad_fd_array(twoloops_fd, x, 8, i), 1e-6);
    CHECK_CLOSE(out[i], x[i] * x[i], 0);
    CHECK_CLOSE(dout[i], 0, 0);
  }
  for (double t = 0.1; t < 3; t += 0.37) {
    int k = (int)(t * 2) & 7;
    double dp = (-0.5 + 0.5 * t + 6 * t * t + 12 * t * t * t) * table[k];
    CHECK_CLOSE(__ad_autodiff((void *)poly, t), dp, 1e-10);
    CHECK_CLOSE(__ad_fwddiff((void *)poly, t, 1.0), dp, 1e-10);
    CHECK_CLOSE(__ad_autodiff((void *)poly, t), ad_fd1(poly_fd, t), 1e-6);
  }
  {
    double xs[NS], dxs[NS] = {0}, outs[NS], douts[NS], ys[NS], dys[NS] = {0};
    for (int i = 0; i < NS; i++) { xs[i] = ad_test_uniform(-1, 1); ys[i] = ad_test_uniform(-1, 1); W[i] = douts[i] = ad_test_uniform(-1, 1); }
    __ad_autodiff((void *)jacobi, xs, dxs, outs, douts, NS, 7);
    for (int i = 0; i < NS; i++) { CHECK_CLOSE(dxs[i], ad_fd_array(jac_fd, xs, NS, i), 1e-6); CHECK_CLOSE(douts[i], 0, 0); }
    memset(dxs, 0, sizeof dxs);
    __ad_autodiff((void *)pick, xs, dxs, ys, dys, NS);
    XP = xs; YP = ys;
    for (int i = 0; i < NS; i++) { CHECK_CLOSE(dxs[i], ad_fd_array(pick_fdx, xs, NS, i), 1e-6); CHECK_CLOSE(dys[i], ad_fd_array(pick_fdy, ys, NS, i), 1e-6); }
    double z[NS], dz[NS];
    for (int i = 0; i < NS; i++) { z[i] = xs[i]; dz[i] = W[i]; }
    __ad_autodiff((void *)reverse_inplace, z, dz, NS);
    for (int i = 0; i < NS; i++) CHECK_CLOSE(dz[i], ad_fd_array(rev_fd, xs, NS, i), 1e-6);

  }
  return ad_test_finish();
}
