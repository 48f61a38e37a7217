// Regression: a function that allocates memory and hands it to its caller
// (stores its address in a struct the caller passed) had its shadow freed
// by the gradient's reverse sweep while the caller's shadow struct pointed
// at it: the caller's free of the shadow was a double free. The shadow now
// lives as long as the memory: the caller frees both. Memory the function
// frees itself still has its shadow freed by the gradient (no leak).
// RUN: %clang_ad -O0 %s -o %t0 -lm && %run %t0
// RUN: %clang_ad -O2 %s -o %t2 -lm && %run %t2
#include "ad_test.h"
#include <ad.h>
#include <stdlib.h>

struct series {
  double *terms;
  long count;
};

// Fills s->terms with x^1..x^n (new memory, the caller's to free) and
// returns the sum of their squares, through a scratch buffer it frees.
double expand(struct series *s, double x, long n) {
  s->terms = malloc(n * sizeof(double));
  s->count = n;
  double *scratch = malloc(n * sizeof(double));
  double p = 1;
  for (long i = 0; i < n; ++i) {
    p *= x;
    s->terms[i] = p;
    scratch[i] = p * p;
  }
  double sum = 0;
  for (long i = 0; i < n; ++i)
    sum += scratch[i];
  free(scratch);
  return sum;
}

int main(void) {
  const long n = 5;
  const double x = 1.1;
  struct series s = {0, 0}, ds = {0, 0};
  double dx = __ad_autodiff((void *)expand, &s, &ds, x, __ad_const, n);
  double want = 0;
  for (long k = 1; k <= n; ++k)
    want += 2 * k * pow(x, 2 * k - 1);
  CHECK_CLOSE(dx, want, 1e-12);
  CHECK_CLOSE(s.terms[n - 1], pow(x, n), 1e-12);
  // The shadow is the caller's, of the memory's size (its adjoints consumed).
  CHECK_TRUE(ds.terms != 0);
  for (long i = 0; i < n; ++i)
    CHECK_CLOSE(ds.terms[i], 0, 0);
  free(s.terms);
  free(ds.terms);

  // Forward mode: the tangent's memory is the caller's too.
  struct series t = {0, 0}, dt = {0, 0};
  double tangent = __ad_fwddiff((void *)expand, &t, &dt, x, 1.0, n);
  CHECK_CLOSE(tangent, want, 1e-12);
  for (long i = 0; i < n; ++i)
    CHECK_CLOSE(dt.terms[i], (i + 1) * pow(x, i), 1e-12);
  free(t.terms);
  free(dt.terms);
  return ad_test_finish();
}
