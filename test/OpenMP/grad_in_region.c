// Derivatives called from inside a parallel region: every thread calls
// __ad_autodiff and __ad_fwddiff on its own data (the differentiated
// function itself is serial), with a loop whose reverse sweep needs a tape,
// so that the threads' tapes must not be shared. Each thread's results are
// checked after the region against finite differences and each other.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 24
#define JOBS 16

/* A loop with a data-dependent branch: its reverse sweep reads a tape. */
static double energy(double *x, int n) {
  double e = 0, prev = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i] > 0 ? sin(x[i]) * x[i] : exp(x[i]) - prev;
    e += t * t + prev * x[i];
    prev = t;
  }
  return e;
}

int main(void) {
  static double x[JOBS][N], dx[JOBS][N], v[JOBS][N], tan_[JOBS], val[JOBS];
  omp_check_team_size();
  for (int j = 0; j < JOBS; j++) {
    omp_fill(x[j], N, -1.5, 1.5);
    omp_fill(v[j], N, -1, 1);
  }
#pragma omp parallel for schedule(dynamic)
  for (int j = 0; j < JOBS; j++) {
    for (int i = 0; i < N; i++)
      dx[j][i] = 0;
    __ad_autodiff_void((void *)energy, x[j], dx[j], N);
    tan_[j] = __ad_fwddiff((void *)energy, x[j], v[j], N);
    val[j] = energy(x[j], N);
  }
  for (int j = 0; j < JOBS; j++) {
    omp_check_grad("per-thread gradient", energy, x[j], dx[j], N, 1e-6);
    omp_check_close("per-thread forward vs reverse", j, tan_[j],
                    omp_dot(v[j], dx[j], N), 1e-10);
    omp_check_close("primal unchanged", j, val[j], energy(x[j], N), 0);
  }
  return ad_test_finish();
}
