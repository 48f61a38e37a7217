// Aligned allocation inside differentiated code: posix_memalign(&p, align,
// size) writes fresh memory through its first argument, so the shadow is
// allocated alike (aligned, zeroed) and written to the shadow of &p; a failed
// call (an alignment that is not a power of two) allocates no shadow and the
// program's fallback to malloc is differentiated as usual. aligned_alloc and
// memalign return the memory like malloc, and their shadows are aligned too:
// the optimizer knows the primal's alignment and may load the shadow with
// aligned vector instructions (-O3 -march=x86-64-v3 in
// lib_aligned_alloc_avx2.c). Checked against closed forms and forward
// against reverse; valgrind checks that every shadow is freed.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#define _GNU_SOURCE
#include <ad.h>
#include "ad_test.h"
#include <malloc.h>
#include <stdlib.h>

#define N 19

/* sum x_i^3 through a scratch buffer: 3 x_i^2 */
double cubes(const double *x, int n) {
  double *t;
  if (posix_memalign((void **)&t, 64, n * sizeof(double)))
    return 0;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}
/* posix_memalign fails (EINVAL: 24 is no power of two); malloc takes over. */
double fallback(const double *x, int n) {
  double *t;
  if (posix_memalign((void **)&t, 24, n * sizeof(double)))
    t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}
/* sum sin(x_i) x_i with aligned_alloc and memalign: cos(x_i) x_i + sin(x_i) */
double viaaligned(const double *x, int n) {
  double *t = aligned_alloc(32, 32 * ((n * sizeof(double) + 31) / 32));
  double *u = memalign(128, n * sizeof(double));
  for (int i = 0; i < n; i++) {
    t[i] = sin(x[i]);
    u[i] = x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * u[i];
  free(t);
  free(u);
  return s;
}

/* The function must be a constant at each entry call: a macro, not a
   function pointer parameter. */
#define CHECK_GRADIENT(f, x, want)                                             \
  do {                                                                         \
    double dx[N] = {0}, tx[N] = {0};                                           \
    __ad_autodiff((void *)f, x, dx, N);                                        \
    for (int i = 0; i < N; i++)                                                \
      CHECK_CLOSE(dx[i], want(x[i]), 1e-12);                                   \
    for (int i = 0; i < N; i += 5) {                                           \
      tx[i] = 1;                                                               \
      CHECK_CLOSE(__ad_fwddiff((void *)f, x, tx, N), dx[i], 1e-12);            \
      tx[i] = 0;                                                               \
    }                                                                          \
  } while (0)
static double three_sq(double x) { return 3 * x * x; }
static double sin_rule(double x) { return cos(x) * x + sin(x); }

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-2, 2);
  CHECK_GRADIENT(cubes, x, three_sq);
  CHECK_GRADIENT(fallback, x, sin_rule);
  CHECK_GRADIENT(viaaligned, x, sin_rule);
  return ad_test_finish();
}
