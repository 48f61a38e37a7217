// Reverse mode: a struct mixing int, double and pointer fields; shadow struct mirrors it.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 6

struct S {
  int n;
  double a;
  double *p;
  double b;
};

/* a * sum p_i^2 + sin(b) * p_0 + a * b */
static double f(const struct S *s) {
  double acc = 0;
  for (int i = 0; i < s->n; i++)
    acc += s->p[i] * s->p[i];
  return s->a * acc + sin(s->b) * s->p[0] + s->a * s->b;
}

/* Writes through the struct: p_i <- a p_i, then b <- b * a. */
static void scale(struct S *s) {
  for (int i = 0; i < s->n; i++)
    s->p[i] *= s->a;
  s->b = s->b * s->a;
}

static double P[N];
static struct S G = {N, 0, P, 0};
/* Finite-difference views of f as a function of one field; G is left as found. */
static double f_a(double *v, int n) {
  struct S t = G;
  t.a = v[0];
  (void)n;
  return f(&t);
}
static double f_b(double *v, int n) {
  struct S t = G;
  t.b = v[0];
  (void)n;
  return f(&t);
}
static double f_p(double *v, int n) {
  struct S t = G;
  t.p = v;
  (void)n;
  return f(&t);
}

int main(void) {
  double dp[N] = {0};
  for (int i = 0; i < N; i++)
    P[i] = ad_test_uniform(-1, 1);
  G.a = 1.3;
  G.b = 0.4;
  struct S dS = {N, 0.0, dp, 0.0};

  __ad_autodiff((void *)f, &G, &dS);
  double sq = 0;
  for (int i = 0; i < N; i++)
    sq += P[i] * P[i];
  CHECK_CLOSE(dS.a, sq + G.b, 1e-10);
  CHECK_CLOSE(dS.b, cos(G.b) * P[0] + G.a, 1e-10);
  double va = G.a, vb = G.b;
  CHECK_CLOSE(dS.a, ad_fd_array(f_a, &va, 1, 0), 1e-5);
  CHECK_CLOSE(dS.b, ad_fd_array(f_b, &vb, 1, 0), 1e-5);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dp[i], 2 * G.a * P[i] + (i == 0 ? sin(G.b) : 0.0), 1e-10);
    CHECK_CLOSE(dp[i], ad_fd_array(f_p, P, N, i), 1e-5);
  }
  CHECK_TRUE(dS.p == dp); /* f only reads the pointer field */

  /* scale: seeds on the new p_i and b. L = sum w_i a p_i + wb * a b. */
  double p[N], p0[N], w[N], da = 0;
  for (int i = 0; i < N; i++) {
    p[i] = p0[i] = ad_test_uniform(-1, 1);
    w[i] = dp[i] = ad_test_uniform(-1, 1);
  }
  double a = 0.8, b = -0.6, wb = 1.7;
  struct S s = {N, a, p, b}, ds = {N, 0.0, dp, wb};
  __ad_autodiff((void *)scale, &s, &ds);
  for (int i = 0; i < N; i++) {
    da += w[i] * p0[i];
    CHECK_CLOSE(dp[i], w[i] * a, 1e-10);
    CHECK_CLOSE(p[i], a * p0[i], 1e-15);
  }
  CHECK_CLOSE(ds.a, da + wb * b, 1e-10); /* a is read, never written: accumulated */
  CHECK_CLOSE(ds.b, wb * a, 1e-10);      /* b overwritten: seed consumed, then d/db */
  CHECK_CLOSE(s.b, b * a, 1e-15);
  CHECK_TRUE(s.n == N && s.a == a && s.p == p);

  return ad_test_finish();
}
