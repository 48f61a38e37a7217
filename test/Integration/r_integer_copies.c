// Memory moved as integers (issue 12, item 5). -O2 copies a double, a
// pointer or a small struct as an i64 load and store; a struct of four long
// longs and a float pointer is copied field by field or as a memcpy; a
// double's bits pass through a `long` with memcpy and back. What each copy
// moves comes from the type analysis (analysis/TypeAnalysis.h): the
// allocation, typed GEPs, TBAA, the callers and callees, the other side of
// the copy. A float's bits carry its derivative, a pointer's bits its
// shadow pointer, integers nothing. Also: an int array whose address is
// stored in a struct and written through gets a shadow of its own (it used
// to get a null one, which the adjoint of the int store wrote through).
// Closed forms in both modes, and forward against reverse.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>
#include <string.h>

/* The struct: four long longs and a float pointer. */
struct L4 { long long a, b, c, d; float *p; };
__attribute__((noinline)) static float use_l4(struct L4 s) {
  return s.p[0] * s.p[1] * (float)(s.a + s.d);
}
__attribute__((noinline)) static struct L4 make_l4(float *x) {
  struct L4 s = {1, 2, 3, 4, x};
  return s;
}
__attribute__((noinline)) static void copy_l4(struct L4 *d, const struct L4 *s) {
  *d = *s;
}
/* 5 x0 x1 */
static float l4_chain(float *x) {
  struct L4 s = make_l4(x), t = s, u;
  u = t;
  struct L4 *h = malloc(sizeof *h);
  copy_l4(h, &u);
  float r = use_l4(*h);
  free(h);
  return r;
}

/* A double's bits through a long, inline and through helpers. */
static double punned(double x) {
  long l;
  memcpy(&l, &x, sizeof l);
  long k = l;
  double y;
  memcpy(&y, &k, sizeof y);
  return y * y;
}
/* Not static: at -O3 argument promotion would pass the double's bits to an
   internal helper as an i64 argument, which derivatives cannot follow (an
   error: the bits of a differentiated value passed to a call). */
__attribute__((noinline)) void to_long(long *l, const double *x) {
  memcpy(l, x, 8);
}
__attribute__((noinline)) void to_double(double *y, const long *l) {
  memcpy(y, l, 8);
}
static double punned_calls(double x) {
  long l, k;
  to_long(&l, &x);
  k = l;
  double y;
  to_double(&y, &k);
  return y * y * y;
}

/* A pointer-only struct copied as 8 raw bytes (an i64 at -O2): its
   shadow pointer must follow. */
struct Ref { float *p; };
__attribute__((noinline)) static void copy_ref(struct Ref *d,
                                               const struct Ref *s) {
  memcpy(d, s, sizeof *d);
}
static float ref_copy(float *x) {
  struct Ref a = {x}, *b = malloc(sizeof *b);
  copy_ref(b, &a);
  float r = b->p[0] * b->p[1] + b->p[1];
  free(b);
  return r;
}

/* A double next to an integer, copied as two i64s. */
struct DN { double v; long n; };
__attribute__((noinline)) static void copy_dn(struct DN *d, const struct DN *s) {
  *d = *s;
}
static double dn_copy(double x) {
  struct DN a = {x, 3}, b;
  copy_dn(&b, &a);
  return b.v * b.v * (double)b.n;
}

/* An int array stored into a struct next to the data, written through. */
typedef struct { int *idx; float *val; } Sparse;
__attribute__((noinline)) static float sparse_use(Sparse *s) {
  s->idx[1] = 7;
  return s->val[s->idx[0]] * s->val[s->idx[1] - 6];
}
static float sparse(float *x) {
  int idx[2] = {0, 0};
  Sparse s = {idx, x};
  return sparse_use(&s);
}

int main(void) {
  float x[2] = {2, 3}, dx[2] = {0, 0}, tx[2];
  __ad_autodiff((void *)l4_chain, x, dx);
  CHECK_CLOSE(dx[0], 5 * x[1], 1e-6);
  CHECK_CLOSE(dx[1], 5 * x[0], 1e-6);
  for (int i = 0; i < 2; i++) {
    tx[0] = i == 0, tx[1] = i == 1;
    CHECK_CLOSE(__ad_fwddiff((void *)l4_chain, x, tx), dx[i], 1e-6);
  }

  CHECK_CLOSE(__ad_autodiff((void *)punned, 1.5), 3.0, 1e-12);
  CHECK_CLOSE(__ad_fwddiff((void *)punned, 1.5, 1.0), 3.0, 1e-12);
  CHECK_CLOSE(__ad_autodiff((void *)punned_calls, 1.5), 3 * 1.5 * 1.5, 1e-12);
  CHECK_CLOSE(__ad_fwddiff((void *)punned_calls, 1.5, 1.0), 3 * 1.5 * 1.5,
              1e-12);

  dx[0] = dx[1] = 0;
  __ad_autodiff((void *)ref_copy, x, dx);
  CHECK_CLOSE(dx[0], x[1], 1e-6);
  CHECK_CLOSE(dx[1], x[0] + 1, 1e-6);
  tx[0] = 0, tx[1] = 1;
  CHECK_CLOSE(__ad_fwddiff((void *)ref_copy, x, tx), x[0] + 1, 1e-6);

  CHECK_CLOSE(__ad_autodiff((void *)dn_copy, 0.75), 6 * 0.75, 1e-12);
  CHECK_CLOSE(__ad_fwddiff((void *)dn_copy, 0.75, 1.0), 6 * 0.75, 1e-12);

  dx[0] = dx[1] = 0;
  __ad_autodiff((void *)sparse, x, dx);
  /* idx[1] = 7 is read back: val[0] * val[7 - 6] */
  CHECK_CLOSE(dx[0], x[1], 1e-6);
  CHECK_CLOSE(dx[1], x[0], 1e-6);
  return ad_test_finish();
}
