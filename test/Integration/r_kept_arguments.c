// Works (keep it working): a split derivative loads again, in its adjoint,
// what it read through an argument whose memory its caller keeps unchanged
// until the call's reverse (DerivativeSignature::KeptArgs), and tapes what
// the caller overwrites later. The callers below overwrite the helpers'
// inputs in every way that must defeat a reload: the same buffer rewritten
// after the call, the call's own output aliasing its input in a loop, a
// local array rewritten by the next call, a heap buffer rewritten between
// two calls, an unrolled layer called both out of place and in place. Each
// gradient is compared with central finite differences at
// -O0 and -O2 (under valgrind), and the remarks show what is taped.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// Two split derivatives of dense: for the callers that never write w (w
// kept), only x is taped, 8 bytes per multiply-add; for rewrites_weights,
// w and x, 16 bytes.
// CHECK-DAG: remark: split derivative of 'dense' caches {{[0-9]+}} bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}}, 8 bytes per iteration
// CHECK-DAG: remark: split derivative of 'dense' caches {{[0-9]+}} bytes per call, 16 bytes per iteration of the loop at line {{[0-9]+}}, 8 bytes per iteration
// dense4 out of place records its inputs once per call, nothing per
// iteration; in place it records them every iteration.
// CHECK-DAG: remark: split derivative of 'dense4' caches {{[0-9]+}} bytes per call; recomputes
// CHECK-DAG: remark: split derivative of 'dense4' caches {{[0-9]+}} bytes per call, 33 bytes per iteration
#include <ad.h>
#include <math.h>
#include <stdlib.h>
#include "ad_test.h"

#define N 6

/* y = tanh(W x), W is n x n. */
__attribute__((noinline)) void dense(const double *w, const double *x,
                                     double *y, int n) {
  for (int o = 0; o < n; o++) {
    double s = 0;
    for (int i = 0; i < n; i++)
      s += w[o * n + i] * x[i];
    y[o] = tanh(s);
  }
}

/* Two layers through local arrays; the second call overwrites a, which the
 * first call read. */
double two_layers(const double *w, const double *x0) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = x0[i];
  dense(w, a, b, N);
  dense(w + N * N, b, a, N);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * a[i];
  return s;
}

/* The weights themselves change after the first call: w is not kept. */
double rewrites_weights(double *w, const double *x0) {
  double a[N], b[N];
  dense(w, x0, a, N);
  for (int i = 0; i < N * N; i++)
    w[i] = w[i] * a[i % N];
  dense(w, a, b, N);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += b[i];
  return s;
}

/* In place in a loop: the call's output is its input. */
double in_place(const double *w, double *x) {
  double s = 0;
  for (int k = 0; k < 3; k++) {
    dense(w, x, x, N);
    s += x[k];
  }
  return s;
}

/* A heap buffer written between two calls that read it. */
double through_heap(const double *w, const double *x0) {
  double *g = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    g[i] = x0[i];
  double a[N];
  dense(w, g, a, N);
  for (int i = 0; i < N; i++)
    g[i] = a[i] * g[i];
  dense(w, g, a, N);
  double s = a[0] + a[N - 1] + g[2];
  free(g);
  return s;
}

/* A 4 -> 16 layer whose inner loop the optimizer unrolls: each o iteration
 * loads x[0..3] from fixed addresses. When the call does not write x they
 * are recorded once per call (invariantLoad); in place (y == x) the loop
 * writes them and they are not. The two layers share weights (w, w + 8). */
__attribute__((noinline)) void dense4(const double *w, const double *x,
                                      double *y) {
  for (int o = 0; o < 16; o++) {
    double s = 0;
    for (int i = 0; i < 4; i++)
      s += w[o * 4 + i] * x[i];
    y[o] = s > 0 ? s : 0.1 * s;
  }
}

double unrolled(const double *w, const double *x0) {
  double a[16], b[16];
  for (int i = 0; i < 4; i++)
    a[i] = x0[i];
  dense4(w, a, b);
  dense4(w + 8, b, a);
  dense4(w, a, a);
  return a[0] * a[1] + a[2] - a[3] * a[15];
}

static double W[2 * N * N], X[N];

typedef double (*objective)(double *w, double *x);

static double w[2 * N * N], x[N], dw[2 * N * N], dx[N];

/* Fresh copies of the inputs (the objectives may write them), zero
 * gradients. */
static void reset(void) {
  for (int i = 0; i < 2 * N * N; i++) {
    w[i] = W[i];
    dw[i] = 0;
  }
  for (int i = 0; i < N; i++) {
    x[i] = X[i];
    dx[i] = 0;
  }
}

/* Central differences of f in w[k] and x[k], against the gradient in dw,
 * dx. Each evaluation gets fresh copies of the inputs. */
static void check(const char *name, objective f) {
  const double h = 1e-6;
  for (int k = 0; k < 2 * N * N + N; k++) {
    double wp[2 * N * N], xp[N], wm[2 * N * N], xm[N];
    for (int i = 0; i < 2 * N * N; i++) wp[i] = wm[i] = W[i];
    for (int i = 0; i < N; i++) xp[i] = xm[i] = X[i];
    double *vp = k < 2 * N * N ? &wp[k] : &xp[k - 2 * N * N];
    double *vm = k < 2 * N * N ? &wm[k] : &xm[k - 2 * N * N];
    *vp += h;
    *vm -= h;
    double fd = (f(wp, xp) - f(wm, xm)) / (2 * h);
    double ad = k < 2 * N * N ? dw[k] : dx[k - 2 * N * N];
    if (!ad_test_close(ad, fd, 1e-6, 1e-8))
      printf("%s: d/d%s[%d] = %.12g, finite differences %.12g\n", name,
             k < 2 * N * N ? "w" : "x", k < 2 * N * N ? k : k - 2 * N * N, ad,
             fd);
    CHECK_CLOSE(ad, fd, 1e-6);
  }
}

static double two_layers_(double *w, double *x) { return two_layers(w, x); }
static double rewrites_weights_(double *w, double *x) {
  return rewrites_weights(w, x);
}
static double in_place_(double *w, double *x) { return in_place(w, x); }
static double unrolled_(double *w, double *x) { return unrolled(w, x); }
static double through_heap_(double *w, double *x) {
  return through_heap(w, x);
}

int main(void) {
  for (int i = 0; i < 2 * N * N; i++)
    W[i] = ad_test_uniform(-0.6, 0.6);
  for (int i = 0; i < N; i++)
    X[i] = ad_test_uniform(-1, 1);
  reset();
  __ad_autodiff((void *)two_layers, w, dw, x, dx);
  check("two_layers", two_layers_);
  reset();
  __ad_autodiff((void *)rewrites_weights, w, dw, x, dx);
  check("rewrites_weights", rewrites_weights_);
  reset();
  __ad_autodiff((void *)in_place, w, dw, x, dx);
  check("in_place", in_place_);
  reset();
  __ad_autodiff((void *)through_heap, w, dw, x, dx);
  check("through_heap", through_heap_);
  reset();
  __ad_autodiff((void *)unrolled, w, dw, x, dx);
  check("unrolled", unrolled_);
  return ad_test_finish();
}
