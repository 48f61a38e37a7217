// #pragma omp atomic updates (x += a * b) of shared doubles, in both modes:
// a histogram whose bins several threads add to, and one shared scalar. The
// reverse sweep reads a bin's adjoint in every thread that updated it; the
// forward sweep must update the tangents atomically as the values are.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 90
#define BINS 7

/* x holds a[N] and b[N]; bins[i % BINS] += a_i b_i, total += a_i^2, then
 * y_k = bins_k * total */
static void hist(const double *x, double *y, int n) {
  const double *a = x, *b = x + N;
  double bins[BINS] = {0}, total = 0;
  (void)n;
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < N; i++) {
#pragma omp atomic
    bins[i % BINS] += a[i] * b[i];
#pragma omp atomic update
    total += a[i] * a[i];
  }
  for (int k = 0; k < BINS; k++)
    y[k] = bins[k] * total;
}

/* atomic on an output array directly: y[i % BINS] += sin(x_i) x_{i+1} */
static void scatter(const double *x, double *y, int n) {
  for (int k = 0; k < BINS; k++)
    y[k] = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = sin(x[i]) * x[(i + 1) % n];
#pragma omp atomic
    y[i % BINS] += t;
  }
}

int main(void) {
  double x[2 * N];
  omp_check_team_size();
  omp_fill(x, 2 * N, -1, 1);
  OMP_CHECK_VECTOR("atomic bins", hist, x, 2 * N, BINS, 1e-6);
  OMP_CHECK_VECTOR("atomic into output", scatter, x, N, BINS, 1e-6);
  return ad_test_finish();
}
