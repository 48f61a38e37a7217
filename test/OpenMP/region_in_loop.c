// Parallel regions run many times by one differentiated function, in both
// modes: a serial time loop whose every step is a parallel region that
// reads the previous step's state, and two different regions in sequence
// each step. The reverse sweep must run the regions' derivatives in the
// opposite order, each with what its own forward run recorded.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 64
#define STEPS 5

static double evolve(double *x, int n) {
  double u[N], v[N];
  for (int i = 0; i < n; i++)
    u[i] = x[i];
  for (int s = 0; s < STEPS; s++) {
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < n; i++)
      v[i] = sin(u[i]) + 0.3 * u[(i + 1) % n] * u[(i + s) % n];
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      u[i] = 0.5 * v[i] + 0.5 * v[(i + n - 1) % n] * v[i];
  }
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("regions in a loop", evolve, x, N, 1e-6);
  return ad_test_finish();
}
