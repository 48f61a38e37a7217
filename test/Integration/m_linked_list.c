// Reverse mode: a caller-built linked list with a shadow list of the same shape.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>

#define N 6

struct Node {
  double v;
  struct Node *next;
};

/* sum_i sin(v_i) + v_i v_{i+1} */
static double walk(const struct Node *head) {
  double s = 0;
  for (const struct Node *p = head; p; p = p->next) {
    s += sin(p->v);
    if (p->next)
      s += p->v * p->next->v;
  }
  return s;
}

/* v_i <- a v_i for every node; a's adjoint is returned. */
static void scale(struct Node *head, double a) {
  for (struct Node *p = head; p; p = p->next)
    p->v *= a;
}

static struct Node *build(int n) {
  struct Node *head = NULL;
  for (int i = n - 1; i >= 0; i--) {
    struct Node *nd = malloc(sizeof *nd);
    nd->v = 0;
    nd->next = head;
    head = nd;
  }
  return head;
}

static void destroy(struct Node *p) {
  while (p) {
    struct Node *next = p->next;
    free(p);
    p = next;
  }
}

static struct Node *L;
static double walk_at(double *v, int n) { (void)v; (void)n; return walk(L); }

int main(void) {
  L = build(N);
  struct Node *dL = build(N), *nd[N], *sd[N];
  int i = 0;
  for (struct Node *p = L, *q = dL; p; p = p->next, q = q->next, i++) {
    p->v = ad_test_uniform(-1.5, 1.5);
    nd[i] = p;
    sd[i] = q;
  }

  __ad_autodiff((void *)walk, L, dL);
  for (int j = 0; j < N; j++) {
    double want = cos(nd[j]->v);
    if (j + 1 < N) want += nd[j + 1]->v;
    if (j > 0) want += nd[j - 1]->v;
    CHECK_CLOSE(sd[j]->v, want, 1e-10);
    CHECK_CLOSE(sd[j]->v, ad_fd_array(walk_at, &nd[j]->v, 1, 0), 1e-5);
    CHECK_TRUE(sd[j]->next == (j + 1 < N ? sd[j + 1] : NULL));
  }

  /* scale: seed w_i on the new v_i. da = sum w_i v_i, and dv_i = a w_i. */
  double v0[N], w[N], a = -0.8, want_a = 0;
  for (int j = 0; j < N; j++) {
    v0[j] = nd[j]->v;
    w[j] = sd[j]->v = ad_test_uniform(-1, 1);
    want_a += w[j] * v0[j];
  }
  double da = __ad_autodiff((void *)scale, L, dL, a);
  CHECK_CLOSE(da, want_a, 1e-10);
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(sd[j]->v, a * w[j], 1e-10);
    CHECK_CLOSE(nd[j]->v, a * v0[j], 1e-15);
  }

  destroy(L);
  destroy(dL);
  return ad_test_finish();
}
