// The -O2 miscompile of issue 12 and its class. A recursive function takes a
// struct of integer bounds and a `float *data`, mallocs two copies of it,
// narrows each copy's bounds, recurses on both and frees them; the base case
// sums data[r*8 + c]^2 over its tile. At -O2 the copy `*child = *parent`
// became a memcpy whose layout the plugin took from the int fields the
// destination happened to store (so the pointer field's shadow was never
// copied, and the adjoint wrote through a null shadow). The layout now comes
// from the type analysis (analysis/TypeAnalysis.h): every byte of a copy must
// be typed or the copy is an error. Variations: copies by struct assignment,
// memcpy, memmove, field by field and through a helper; bounds as int, long
// and short; the pointer first, last or between the bounds; recursion and a
// loop; heap and stack children. Closed form: d/dx sum x^2 = 2x, in both
// modes, and forward against reverse.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>
#include <string.h>

typedef struct { int r0, r1, c0, c1; float *data; } Tile;      /* issue's */
typedef struct { long lo, hi; float *data; } Span;             /* longs */
typedef struct { float *data; short lo, hi; } Tail;            /* ptr first */
typedef struct { int lo; float *data; int hi; } Mid;           /* ptr between */

static float tile_sum(const Tile *t) {
  if ((t->r1 - t->r0) * (t->c1 - t->c0) <= 2) {
    float s = 0;
    for (int r = t->r0; r < t->r1; r++)
      for (int c = t->c0; c < t->c1; c++)
        s += t->data[r * 8 + c] * t->data[r * 8 + c];
    return s;
  }
  Tile *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  *a = *t;
  *b = *t;
  if (t->r1 - t->r0 > 1) {
    int mid = (t->r0 + t->r1) / 2;
    a->r1 = mid;
    b->r0 = mid;
  } else {
    int mid = (t->c0 + t->c1) / 2;
    a->c1 = mid;
    b->c0 = mid;
  }
  float s = tile_sum(a) + tile_sum(b);
  free(a);
  free(b);
  return s;
}
static float tile_root(float *x) {
  Tile t = {0, 8, 0, 8, x};
  return tile_sum(&t);
}

/* The same split, the children copied by memcpy and memmove. */
static float span_sum(const Span *s) {
  if (s->hi - s->lo <= 3) {
    float r = 0;
    for (long i = s->lo; i < s->hi; i++) r += s->data[i] * s->data[i];
    return r;
  }
  Span *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  memcpy(a, s, sizeof *a);
  memmove(b, s, sizeof *b);
  long mid = (s->lo + s->hi) / 2;
  a->hi = mid;
  b->lo = mid;
  float r = span_sum(a) + span_sum(b);
  free(a);
  free(b);
  return r;
}
static float span_root(float *x) {
  Span s = {0, 64, x};
  return span_sum(&s);
}

/* Field by field, into stack children, the pointer first. */
__attribute__((noinline)) static void copy_tail(Tail *d, const Tail *s) {
  d->data = s->data;
  d->lo = s->lo;
  d->hi = s->hi;
}
static float tail_sum(const Tail *s) {
  if (s->hi - s->lo <= 4) {
    float r = 0;
    for (int i = s->lo; i < s->hi; i++) r += s->data[i] * s->data[i];
    return r;
  }
  Tail a, b;
  copy_tail(&a, s);
  copy_tail(&b, s);
  a.hi = b.lo = (short)((s->lo + s->hi) / 2);
  return tail_sum(&a) + tail_sum(&b);
}
static float tail_root(float *x) {
  Tail t = {x, 0, 64};
  return tail_sum(&t);
}

/* A loop instead of recursion: each step copies the previous descriptor
   into a fresh heap block through a helper, then frees the old one. */
__attribute__((noinline)) static Mid *clone_mid(const Mid *m) {
  Mid *c = malloc(sizeof *c);
  *c = *m;
  return c;
}
static float mid_walk(float *x) {
  Mid *m = malloc(sizeof *m);
  m->lo = 0;
  m->hi = 8;
  m->data = x;
  float r = 0;
  for (int k = 0; k < 8; k++) {
    Mid *n = clone_mid(m);
    free(m);
    for (int i = n->lo; i < n->hi; i++) r += n->data[i] * n->data[i];
    n->lo += 8;
    n->hi += 8;
    m = n;
  }
  free(m);
  return r;
}

/* The entry points need the function itself, so each check is a macro. */
#define CHECK_FN(f)                                                            \
  do {                                                                         \
    float x[64], dx[64] = {0}, tx[64];                                         \
    for (int i = 0; i < 64; i++)                                               \
      x[i] = 0.05f * (float)(i - 20);                                          \
    __ad_autodiff((void *)f, x, dx);                                           \
    for (int i = 0; i < 64; i++)                                               \
      CHECK_CLOSE(dx[i], 2 * x[i], 1e-5);                                      \
    /* forward mode along e_i: row i of the (1 x 64) Jacobian */              \
    for (int i = 0; i < 64; i += 9) {                                          \
      memset(tx, 0, sizeof tx);                                                \
      tx[i] = 1;                                                               \
      CHECK_CLOSE(__ad_fwddiff((void *)f, x, tx), dx[i], 1e-5);                \
    }                                                                          \
  } while (0)

int main(void) {
  CHECK_FN(tile_root);
  CHECK_FN(span_root);
  CHECK_FN(tail_root);
  CHECK_FN(mid_walk);
  return ad_test_finish();
}
