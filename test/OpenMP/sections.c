// sections, in both modes: each section runs once, on whichever thread
// takes it (clang lowers them to a static loop over the section numbers);
// the results meet after the construct's barrier.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 40

/* a = sum x_i^2 over the first half, b = prod cos(x_i / 2) over the
 * second, c = sin(x_0 x_{N-1}); returns a b + c */
static double three(double *x, int n) {
  double a = 0, b = 1, c = 0;
#pragma omp parallel sections
  {
#pragma omp section
    for (int i = 0; i < n / 2; i++)
      a += x[i] * x[i];
#pragma omp section
    for (int i = n / 2; i < n; i++)
      b *= cos(0.5 * x[i]);
#pragma omp section
    c = sin(x[0] * x[n - 1]);
  }
  return a * b + c;
}

/* sections inside a region, followed by a loop that reads their results */
static void then_loop(const double *x, double *y, int n) {
  double lo = 0, hi = 0;
#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      lo = exp(0.1 * x[0]);
#pragma omp section
      hi = x[n - 1] * x[n - 2];
    }
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = x[i] * (i < n / 2 ? lo : hi);
  }
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("parallel sections", three, x, N, 1e-6);
  OMP_CHECK_VECTOR("sections then for", then_loop, x, N, N, 1e-6);
  return ad_test_finish();
}
