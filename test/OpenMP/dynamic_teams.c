// Teams whose size changes from region to region, in both modes: with
// OMP_DYNAMIC=true libomp may give a region fewer threads than asked for
// (by the machine's load; KMP_DYNAMIC_MODE=random makes it pick a random
// size from 1 to OMP_NUM_THREADS for every region, so that the test does
// not depend on the load). The derivative's teams need not have the
// primal's size, but the gradient must not change.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm
// RUN: env OMP_DYNAMIC=true KMP_DYNAMIC_MODE=random OMP_NUM_THREADS=8 %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm
// RUN: env OMP_DYNAMIC=true KMP_DYNAMIC_MODE=random OMP_NUM_THREADS=8 %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 64

static double f(double *x, int n) {
  double s = 0, m = -INFINITY;
#pragma omp parallel for reduction(+ : s) reduction(max : m)
  for (int i = 0; i < n; i++) {
    s += sin(x[i]) * x[(i + 1) % n];
    m = fmax(m, x[i] * x[i]);
  }
  return s + m;
}

int main(void) {
  double x[N];
  omp_fill(x, N, -1, 1);
  for (int r = 0; r < 20; r++)
    OMP_CHECK_SCALAR("changing team sizes", f, x, N, 1e-6);
  return ad_test_finish();
}
