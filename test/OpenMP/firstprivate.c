// firstprivate on a floating-point variable, in both modes: each thread
// starts from a copy of the value the variable had before the region.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 40

/* c = 2 x_0, private to each thread and scaled there: sum_i c x_i */
static double f(double *x, int n) {
  double c = x[0] * 2, s = 0;
#pragma omp parallel for firstprivate(c) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    s += c * x[i];
    c *= 1.0;
  }
  return s;
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("firstprivate", f, x, N, 1e-6);
  return ad_test_finish();
}
