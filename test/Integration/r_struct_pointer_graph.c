// Works (keep it working): pointer-linked data --
//  * an array of pointers to structs that are also chained by a `next` field
//    (pairwise N-body energy over the chain), shadow structs of the same shape;
//  * a binary tree malloc'd inside the differentiated function, consumed and
//    freed by recursion (depth-weighted sum);
//  * memset of a local accumulator, abort()/exit() on error paths.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <string.h>
typedef struct Particle { double pos[2], vel[2], m; struct Particle *next; int id; } Particle;
/* array of pointers to structs + linked through next */
static double energy(Particle **ps, int n, double dt) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    Particle *p = ps[i];
    double x = p->pos[0] + dt * p->vel[0], y = p->pos[1] + dt * p->vel[1];
    e += 0.5 * p->m * (p->vel[0] * p->vel[0] + p->vel[1] * p->vel[1]);
    for (Particle *q = p->next; q; q = q->next) {
      double dx = x - q->pos[0], dy = y - q->pos[1];
      e += p->m * q->m / sqrt(dx * dx + dy * dy + 0.1);
    }
  }
  return e;
}
static void step(Particle *arr, int n, double dt) {
  for (Particle *p = arr; p; p = p->next) {
    p->pos[0] += dt * p->vel[0];
    p->pos[1] += dt * p->vel[1];
  }
}
#define N 5
static Particle P[N], *PP[N];
static double e_fd(double *v, int n) { (void)v; (void)n; return energy(PP, N, 0.1); }
static double guarded(const double *x, int n) {
  if (n <= 0) { fprintf(stderr, "bad n\n"); abort(); }
  if (__builtin_expect(x == NULL, 0)) exit(3);
  double acc[8];
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < n; i++) acc[i % 8] += x[i] * x[i];
  double s = 0;
  for (int i = 0; i < 8; i++) s += acc[i] * acc[i];
  return s;
}
typedef struct Node { double v; struct Node *l, *r; } Node;
static Node *build(const double *x, int lo, int hi) {
  if (lo >= hi) return NULL;
  int mid = (lo + hi) / 2;
  Node *n = malloc(sizeof *n);
  n->v = x[mid] * x[mid];
  n->l = build(x, lo, mid);
  n->r = build(x, mid + 1, hi);
  return n;
}
static double tsum(Node *n, int depth) {
  if (!n) return 0;
  double s = n->v * (depth + 1) + tsum(n->l, depth + 1) + tsum(n->r, depth + 1);
  free(n);
  return s;
}
static int depth_of(int i, int lo, int hi, int d) { int mid = (lo + hi) / 2; if (i == mid) return d; return i < mid ? depth_of(i, lo, mid, d + 1) : depth_of(i, mid + 1, hi, d + 1); }
static double tree(const double *x, int n) { return tsum(build(x, 0, n), 0); }
int main(void) {
  Particle dP[N], *dPP[N];
  for (int i = 0; i < N; i++) {
    P[i].pos[0] = ad_test_uniform(-1, 1); P[i].pos[1] = ad_test_uniform(-1, 1);
    P[i].vel[0] = ad_test_uniform(-1, 1); P[i].vel[1] = ad_test_uniform(-1, 1);
    P[i].m = ad_test_uniform(0.5, 2); P[i].id = i;
    P[i].next = i + 1 < N ? &P[i + 1] : NULL;
    dP[i] = (Particle){{0, 0}, {0, 0}, 0, i + 1 < N ? &dP[i + 1] : NULL, 0};
    PP[N - 1 - i] = &P[i]; dPP[N - 1 - i] = &dP[i];
  }
  double ddt = __ad_autodiff((void *)energy, PP, dPP, N, 0.1);
  double h = 1e-6;
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dP[i].pos[0], ad_fd_array(e_fd, &P[i].pos[0], 1, 0), 1e-5);
    CHECK_CLOSE(dP[i].pos[1], ad_fd_array(e_fd, &P[i].pos[1], 1, 0), 1e-5);
    CHECK_CLOSE(dP[i].vel[0], ad_fd_array(e_fd, &P[i].vel[0], 1, 0), 1e-5);
    CHECK_CLOSE(dP[i].vel[1], ad_fd_array(e_fd, &P[i].vel[1], 1, 0), 1e-5);
    CHECK_CLOSE(dP[i].m, ad_fd_array(e_fd, &P[i].m, 1, 0), 1e-5);
  }
  CHECK_CLOSE(ddt, (energy(PP, N, 0.1 + h) - energy(PP, N, 0.1 - h)) / (2 * h), 1e-5);
  /* step walks the chain: pos += dt vel. Seed w on the new positions. */
  {
    double w[N][2], vel[N][2], ddt_want = 0;
    for (int i = 0; i < N; i++) {
      dP[i] = (Particle){{0, 0}, {0, 0}, 0, i + 1 < N ? &dP[i + 1] : NULL, 0};
      for (int c = 0; c < 2; c++) {
        w[i][c] = dP[i].pos[c] = ad_test_uniform(-1, 1);
        vel[i][c] = P[i].vel[c];
        ddt_want += w[i][c] * vel[i][c];
      }
    }
    double ddt2 = __ad_autodiff((void *)step, &P[0], &dP[0], N, 0.25);
    CHECK_CLOSE(ddt2, ddt_want, 1e-12);
    for (int i = 0; i < N; i++)
      for (int c = 0; c < 2; c++) {
        CHECK_CLOSE(dP[i].pos[c], w[i][c], 1e-15);
        CHECK_CLOSE(dP[i].vel[c], 0.25 * w[i][c], 1e-15);
      }
  }
  {
  double x[13], dx[13] = {0};
  for (int i = 0; i < 13; i++) x[i] = ad_test_uniform(-1, 1);
  __ad_autodiff((void *)guarded, x, dx, 13);
  double acc[8] = {0};
  for (int i = 0; i < 13; i++) acc[i % 8] += x[i] * x[i];
  for (int i = 0; i < 13; i++) CHECK_CLOSE(dx[i], 4 * acc[i % 8] * x[i], 1e-12);
  memset(dx, 0, sizeof dx);
  __ad_autodiff((void *)tree, x, dx, 13);
  for (int i = 0; i < 13; i++) CHECK_CLOSE(dx[i], 2 * x[i] * (depth_of(i, 0, 13, 0) + 1), 1e-12);
  }
  return ad_test_finish();
}
