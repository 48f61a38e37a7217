// Functions called from inside a parallel region, in both modes: a
// noinline helper per iteration (its derivative is called by every thread),
// an orphaned `omp for` in a function the region calls (the worksharing
// binds to the caller's team), and a differentiated function whose callee
// holds the parallel region.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 75

__attribute__((noinline)) static double cell(const double *x, int i, int n) {
  double l = x[(i + n - 1) % n], r = x[(i + 1) % n];
  return log(1 + x[i] * x[i]) * (l + r) + l * r;
}

static void with_helper(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++)
    y[i] = cell(x, i, n);
}

/* An orphaned worksharing loop: called inside a region, it splits its
 * iterations over the calling team, and ends with a barrier. */
__attribute__((noinline)) static void orphan_for(const double *x, double *t,
                                                 int n) {
#pragma omp for
  for (int i = 0; i < n; i++)
    t[i] = x[i] * exp(-x[i]);
}

static void orphaned(const double *x, double *y, int n) {
  double t[N];
#pragma omp parallel
  {
    orphan_for(x, t, n);
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = t[i] * t[(i + 5) % n];
  }
}

/* The region is in a callee of the differentiated function. */
__attribute__((noinline)) static void region(const double *x, double *y,
                                             int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = sqrt(1 + x[i] * x[i]) * x[n - 1 - i];
}

static void caller(const double *x, double *y, int n) {
  double t[N];
  for (int i = 0; i < n; i++)
    t[i] = x[i] * 0.5 + 1;
  region(t, y, n);
  for (int i = 0; i < n; i++)
    y[i] *= x[i];
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_VECTOR("noinline helper", with_helper, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("orphaned for", orphaned, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("region in a callee", caller, x, N, N, 1e-6);
  return ad_test_finish();
}
