// ordered regions, in both modes: the ordered part of each iteration runs
// in iteration order, so a recurrence through a shared accumulator is
// well defined; its reverse must run in the reverse order (the adjoint of
// acc flows from the last iteration to the first), whatever thread ran
// each iteration. Static, static chunked and dynamic schedules.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 60

/* acc_i = 0.9 acc_{i-1} + sin(x_i) x_i, returns acc_N */
static double recur(double *x, int n) {
  double acc = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
    double t = sin(x[i]) * x[i];
#pragma omp ordered
    acc = 0.9 * acc + t;
  }
  return acc;
}

/* acc_i = acc_{i-1} (1 + x_i / 4) + x_i^2, the chain is multiplicative:
 * every earlier x's adjoint depends on every later one */
static double chain(double *x, int n) {
  double acc = 1;
#pragma omp parallel for ordered schedule(static, 3)
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i];
#pragma omp ordered
    acc = acc * (1 + 0.25 * x[i]) + t;
  }
  return acc;
}

/* A running sum written out in order: y_i = sum_{k <= i} exp(x_k / 2) */
static void prefix(const double *x, double *y, int n) {
  double run = 0;
#pragma omp parallel for ordered schedule(dynamic, 2)
  for (int i = 0; i < n; i++) {
    double t = exp(0.5 * x[i]);
#pragma omp ordered
    {
      run += t;
      y[i] = run;
    }
  }
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("ordered", recur, x, N, 1e-6);
  OMP_CHECK_SCALAR("ordered static,3", chain, x, N, 1e-6);
  OMP_CHECK_VECTOR("ordered dynamic,2 prefix", prefix, x, N, N, 1e-6);
  return ad_test_finish();
}
