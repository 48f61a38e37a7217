// for nowait, in both modes. Two static loops with the same iteration count
// give each thread the same iterations (OpenMP guarantees it), so the second
// may read, without a barrier, what the first wrote at the same index; a
// third, independent nowait loop writes another output. The region's end is
// the only barrier.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 110

/* y_i = t_i^2 + x_i with t_i = exp(x_i / 3) x_i, and
 * y_{N+i} = x_i x_{N-1-i} */
static void chained(const double *x, double *y, int n) {
  double t[N];
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++)
      t[i] = exp(x[i] / 3) * x[i];
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++)
      y[i] = t[i] * t[i] + x[i];
#pragma omp for schedule(dynamic, 4) nowait
    for (int i = 0; i < n; i++)
      y[n + i] = x[i] * x[n - 1 - i];
  }
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_VECTOR("nowait", chained, x, N, 2 * N, 1e-6);
  return ad_test_finish();
}
