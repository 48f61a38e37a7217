// Nested derivatives reached through helpers, with pointers and heap memory:
//  - energy(x) calls a helper that zeroes a malloc'd buffer and calls
//    __ad_autodiff(poly, __ad_const c, x, g, __ad_const n) into it (the
//    inner loop breaks early on the data), then sums a function of g and
//    frees the buffer;
//  - spread(x) calls the inner gradient in a loop, once per point t_i, with
//    the gradient going into a local array;
//  - stiff(x) runs an inner gradient of a loop with ~3000 data-dependent
//    iterations, so the inner tape is reallocated many times while the
//    outer derivative records its values;
//  - heap_inner: the inner function itself allocates, reallocates, copies
//    and frees;
//  - seeded(w): an inner gradient seeded with w through an output's shadow,
//    differentiated with respect to the seed: J v, as forward mode says.
// Each outer function is differentiated in reverse and forward mode, and
// both are checked against central differences (reverse over reverse,
// reverse over forward where the inner call is forward, forward over each).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include <string.h>
#include "ad_test.h"

#define N 4
#define TOL_AGREE 1e-10
#define TOL_FD 1e-6

void __ad_autodiff_void(void *, ...);
void __ad_fwddiff_void(void *, ...);

static double poly(const double *c, const double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) {
    s += c[i] * p * sin(x[i]);
    p *= x[i];
    if (s > 100)
      break;
  }
  return s;
}

static void gradient_into(const double *c, const double *x, double *g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 0;
  __ad_autodiff_void((void *)poly, __ad_const, c, x, g, __ad_const, n);
}

static double energy(const double *x, int n) {
  static const double c[N] = {1, -2, 0.5, 3};
  double *g = malloc(sizeof(double) * n);
  gradient_into(c, x, g, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += g[i] * g[i] * (i + 1);
  free(g);
  return s;
}

/* sum_i t_i * <grad poly(t_i x), 1>: one inner gradient per point. */
static double spread(const double *x, int n) {
  static const double c[N] = {0.5, 1, -1, 2};
  double s = 0;
  for (int k = 1; k <= 3; k++) {
    double y[N], g[N];
    for (int i = 0; i < n; i++)
      y[i] = 0.5 * k * x[i];
    gradient_into(c, y, g, n);
    for (int i = 0; i < n; i++)
      s += k * g[i];
  }
  return s;
}

/* A long data-dependent loop: the inner tape grows through many reallocs. */
static double long_loop(const double *x, int n) {
  double s = x[0], sum = 0;
  int k = 0;
  while (k < 3000 + (x[1] > 0)) {
    s = 0.5 * sin(s) * x[k % n] + 0.25 * s + 0.1;
    sum += s;
    k++;
  }
  return 0.01 * sum;
}

static double stiff(const double *x, int n) {
  double g[N] = {0};
  __ad_autodiff_void((void *)long_loop, x, g, __ad_const, n);
  return g[0] * g[0] + g[1] * g[2] + g[3];
}

/* The inner function allocates, grows, copies and frees memory itself. */
static double heap_inner(const double *x, int n) {
  int cap = 2;
  double *buf = malloc(sizeof(double) * cap);
  for (int i = 0; i < n; i++) {
    if (i >= cap) {
      cap *= 2;
      buf = realloc(buf, sizeof(double) * cap);
    }
    buf[i] = x[i] * x[i] + (i ? 0.5 * buf[i - 1] : 0);
  }
  double *copy = malloc(sizeof(double) * n);
  memcpy(copy, buf, sizeof(double) * n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += copy[i] * sin(copy[i]);
  free(buf);
  free(copy);
  return s;
}

static double heap_outer(const double *x, int n) {
  double g[N] = {0};
  __ad_autodiff_void((void *)heap_inner, x, g, __ad_const, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += g[i] * g[i] * (1 + i);
  return s;
}

/* A forward inner call in a helper, with its tangent in an array. */
static double heap_tangent(const double *x, int n) {
  static const double v[N] = {1, -1, 0.5, 2};
  return __ad_fwddiff((void *)heap_inner, x, v, __ad_const, n);
}

/* y = F(x), written through a pointer. */
static void vector_map(const double *x, double *y) {
  y[0] = x[0] * x[1] + sin(x[2]);
  y[1] = exp(x[1]) * x[0];
  for (int i = 0; i < 3; i++)
    y[1] += x[i] * y[0];
}
static const double V3[3] = {0.3, -1.2, 0.7};
static const double X3[3] = {0.5, -0.4, 0.9};

/* <J^T w, v> as a function of the seed w, which the inner gradient reads
 * from y's shadow (and clears): its gradient is J v. */
static double seeded(const double *w, int n) {
  double x[3], gx[3] = {0}, y[2], seed[2];
  memcpy(x, X3, sizeof x);
  memcpy(seed, w, sizeof seed);
  __ad_autodiff_void((void *)vector_map, x, gx, y, seed);
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += gx[i] * V3[i];
  return s;
}

/* Reverse and forward derivatives of h at x against central differences. */
#define CHECK_OUTER(h, x)                                                      \
  do {                                                                         \
    double grad_[N] = {0};                                                     \
    __ad_autodiff_void((void *)h, x, grad_, __ad_const, N);                    \
    for (int i = 0; i < N; i++) {                                              \
      double t_[N] = {0};                                                      \
      t_[i] = 1;                                                               \
      double fwd_ = __ad_fwddiff((void *)h, x, t_, __ad_const, N);             \
      CHECK_CLOSE(fwd_, grad_[i], TOL_AGREE);                                  \
      CHECK_CLOSE(grad_[i],                                                    \
                  ad_fd_array((double (*)(double *, int))h, x, N, i), TOL_FD); \
    }                                                                          \
  } while (0)

int main(void) {
  double x[N] = {0.3, -0.8, 1.1, 0.4};
  CHECK_OUTER(energy, x);
  CHECK_OUTER(spread, x);
  CHECK_OUTER(heap_outer, x);
  CHECK_OUTER(heap_tangent, x);
  double y[N] = {0.7, 0.2, -0.5, 0.9};
  CHECK_OUTER(stiff, y);
  y[1] = -0.2; /* one iteration fewer */
  CHECK_OUTER(stiff, y);
  /* The gradient with respect to the seed of an inner gradient is J v, the
   * tangent of the inner function. */
  double w[2] = {1.3, -0.6}, dw[2] = {0}, x3[3], y3[2], jv[2] = {0};
  __ad_autodiff_void((void *)seeded, w, dw, __ad_const, 2);
  memcpy(x3, X3, sizeof x3);
  __ad_fwddiff_void((void *)vector_map, x3, V3, y3, jv);
  for (int i = 0; i < 2; i++) {
    double t[2] = {0};
    t[i] = 1;
    CHECK_CLOSE(dw[i], jv[i], TOL_AGREE);
    CHECK_CLOSE(__ad_fwddiff((void *)seeded, w, t, __ad_const, 2), jv[i],
                TOL_AGREE);
  }
  return ad_test_finish();
}
