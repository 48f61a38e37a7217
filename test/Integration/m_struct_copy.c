// Struct assignment (a memcpy described by !tbaa.struct at -O1 and up) moves
// adjoints field by field, also for structs mixing double, int and pointers.
// At -O0 the memcpy in copy_p and swap_p is between bare pointer parameters;
// the layout comes from what the callers pass (&t, &p: allocas of struct P).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"

struct P { double x, y; };
struct Q { double a; int n; double *p; double b; };

__attribute__((noinline)) static void copy_p(struct P *d, const struct P *s) { *d = *s; }

static double f(struct P *in) {
  struct P t;
  copy_p(&t, in);
  return t.x * t.y * 3;
}

static double g(struct Q *in) {
  struct Q t = *in;
  return t.a * t.p[0] * t.b + t.n;
}

/* Swap through a struct temporary; the output is seeded by the caller. */
static void swap_p(struct P *a, struct P *b) {
  struct P t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  for (int k = 0; k < 4; k++) {
    struct P p = {ad_test_uniform(-2, 2), ad_test_uniform(-2, 2)}, dp = {0, 0};
    __ad_autodiff((void *)f, &p, &dp);
    CHECK_CLOSE(dp.x, 3 * p.y, 1e-12);
    CHECK_CLOSE(dp.y, 3 * p.x, 1e-12);

    double v = ad_test_uniform(-2, 2), dv = 0;
    struct Q q = {ad_test_uniform(-2, 2), 3, &v, ad_test_uniform(-2, 2)};
    struct Q dq = {0, 0, &dv, 0};
    __ad_autodiff((void *)g, &q, &dq);
    CHECK_CLOSE(dq.a, v * q.b, 1e-12);
    CHECK_CLOSE(dv, q.a * q.b, 1e-12);
    CHECK_CLOSE(dq.b, q.a * v, 1e-12);
    /* Finite difference of g with respect to a. */
    double h = 1e-6, a0 = q.a;
    q.a = a0 + h;
    double gp = g(&q);
    q.a = a0 - h;
    double gm = g(&q);
    q.a = a0;
    CHECK_CLOSE(dq.a, (gp - gm) / (2 * h), 1e-6);

    /* After the swap a holds b's values: the seed on a flows to b. */
    struct P a = {1, 2}, b = {3, 4}, da = {10, 20}, db = {30, 40};
    __ad_autodiff((void *)swap_p, &a, &da, &b, &db);
    CHECK_TRUE(a.x == 3 && a.y == 4 && b.x == 1 && b.y == 2);
    CHECK_CLOSE(da.x, 30, 0);
    CHECK_CLOSE(da.y, 40, 0);
    CHECK_CLOSE(db.x, 10, 0);
    CHECK_CLOSE(db.y, 20, 0);
  }
  return ad_test_finish();
}
