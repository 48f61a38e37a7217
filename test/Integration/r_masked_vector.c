// Regression: with AVX2/AVX-512 enabled (-march=native on any recent x86, or
// -march=skylake / x86-64-v3 / x86-64-v4) the loop vectorizer emits
// llvm.masked.store / llvm.masked.load for conditional stores and
// llvm.masked.gather for indexed reads such as t[(i + 1) % n]. The plugin had
// no rule for them ("call to 'llvm.masked.store.v4f64.p0', which has no body
// and no derivative rule"; same for llvm.masked.gather.v4f64.v4p0), so code
// that compiles at plain -O3 failed as soon as the target has AVX2
// (m_malloc_free.c fails the same way with -O3 -march=skylake).
// The -march RUN lines need an x86-64 host with AVX2; AVX-512 (which valgrind
// cannot run) is in r_masked_vector_avx512.c.
// REQUIRES: host-avx2
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 -march=x86-64-v3 %s -o %t.v3 -lm && %run %t.v3
// RUN: %clang_ad -O3 -march=skylake %s -o %t.skl -lm && %run %t.skl
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>

#define N 37

/* conditional store: llvm.masked.store with AVX2 */
static void relu_sq(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    if (x[i] > 0) y[i] = x[i] * x[i];
}
/* periodic neighbour read from a heap temporary: llvm.masked.gather */
static double ring(const double *x, int n) {
  double *t = malloc(n * sizeof *t), *u = malloc(n * sizeof *u);
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) u[i] = t[i] * t[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i];
  free(t);
  free(u);
  return s;
}
static double ring_fd(double *x, int n) { return ring(x, n); }

int main(void) {
  double x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = ad_test_uniform(-1, 1);

  for (int i = 0; i < N; i++) { y[i] = -5; dy[i] = 1; dx[i] = 0; }
  __ad_autodiff((void *)relu_sq, x, dx, y, dy, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], x[i] > 0 ? 2 * x[i] : 0, 1e-15);
    CHECK_CLOSE(dy[i], x[i] > 0 ? 0 : 1, 0);     /* overwritten: seed consumed */
    CHECK_CLOSE(y[i], x[i] > 0 ? x[i] * x[i] : -5, 0);
  }
  double tx[N], ty[N];
  for (int i = 0; i < N; i++) { y[i] = -5; tx[i] = i + 1; ty[i] = 7; }
  __ad_fwddiff((void *)relu_sq, x, tx, y, ty, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(ty[i], x[i] > 0 ? 2 * x[i] * (i + 1) : 7, 1e-15);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __ad_autodiff((void *)ring, x, dx, N);
  double jv = 0;
  for (int i = 0; i < N; i++) {
    double xn = x[(i + 1) % N], xp = x[(i + N - 1) % N];
    double want = 2 * x[i] * (xn * xn + xp * xp);
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(dx[i], ad_fd_array(ring_fd, x, N, i), 1e-6);
    jv += dx[i] * tx[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)ring, x, tx, N), jv, 1e-12);
  return ad_test_finish();
}
