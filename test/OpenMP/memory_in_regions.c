// Memory inside and around parallel regions, in both modes: a heap buffer
// the differentiated function allocates, fills in one region and reads in
// another; scratch memory each thread allocates and frees inside the region;
// an array of structs (a double and an int field) updated in place, with an
// atomic sum of one field; and a recursive function called per iteration.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 40

typedef struct {
  double pos, vel;
  int id;
} particle;

static double heap_buffer(double *x, int n) {
  double *buf = malloc(n * sizeof(double)), s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    buf[i] = exp(0.5 * x[i]) * x[(i + 3) % n];
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += buf[i] * buf[(i + 1) % n];
  free(buf);
  return s;
}

static double thread_scratch(double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    double *tmp = malloc(8 * sizeof(double));
#pragma omp for
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 8; k++)
        tmp[k] = x[i] * (k + 1) + (k ? tmp[k - 1] * 0.5 : 0);
      s += tmp[7] * tmp[3];
    }
    free(tmp);
  }
  return s;
}

/* one step of particles in a potential; energy plus the squared weighted
 * sum of positions, added atomically */
static double particles(double *x, int n) {
  particle p[N];
  double e = 0, moment = 0;
  for (int i = 0; i < n; i++) {
    p[i].pos = x[i];
    p[i].vel = 0.1 * x[i] * x[i];
    p[i].id = i;
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    p[i].vel -= 0.1 * sin(p[i].pos);
    p[i].pos += 0.1 * p[i].vel;
#pragma omp atomic
    moment += p[i].pos * (p[i].id % 3);
  }
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++)
    e += 0.5 * p[i].vel * p[i].vel + cos(p[i].pos);
  return e + moment * moment;
}

static double nest(double v, int depth) {
  return depth == 0 ? v : sin(nest(v * 1.1, depth - 1)) + v;
}

static double recursion(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic)
  for (int i = 0; i < n; i++)
    s += nest(x[i], i % 5);
  return s;
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("heap buffer", heap_buffer, x, N, 1e-6);
  OMP_CHECK_SCALAR("per-thread scratch", thread_scratch, x, N, 1e-6);
  OMP_CHECK_SCALAR("array of structs", particles, x, N, 1e-6);
  OMP_CHECK_SCALAR("recursion", recursion, x, N, 1e-6);
  return ad_test_finish();
}
