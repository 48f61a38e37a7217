// Nested parallel regions, in both modes: an outer parallel loop with
// num_threads(2) whose iterations each run an inner parallel reduction.
// By default the inner regions are serialized (teams of 1); with
// OMP_MAX_ACTIVE_LEVELS=2 they get their own teams of 2, running side by
// side.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: env OMP_MAX_ACTIVE_LEVELS=2 %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
// RUN: env OMP_MAX_ACTIVE_LEVELS=2 %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 40
#define BLOCKS 4

/* sum over blocks of (sum_{i in block} x_i^3)^2 */
static double nested(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int b = 0; b < BLOCKS; b++) {
    double t = 0;
#pragma omp parallel for reduction(+ : t) num_threads(2)
    for (int i = b * n / BLOCKS; i < (b + 1) * n / BLOCKS; i++)
      t += x[i] * x[i] * x[i];
    s += t * t;
  }
  return s;
}

int main(void) {
  double x[N];
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("nested regions", nested, x, N, 1e-6);
  return ad_test_finish();
}
