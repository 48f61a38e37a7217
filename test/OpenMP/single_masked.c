// single, masked and master, in both modes: one thread computes a shared
// value the others then read (after single's implicit barrier, or after an
// explicit barrier following masked/master). In the reverse sweep the
// readers' adjoints must all reach that one thread's computation.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 80

/* y_i = x_i / |x| + x_i^2 |x|, with |x| computed by a single thread */
static void normalise(const double *x, double *y, int n) {
  double norm = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      double s = 0;
      for (int i = 0; i < n; i++)
        s += x[i] * x[i];
      norm = sqrt(s);
    }
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = x[i] / norm + x[i] * x[i] * norm;
  }
}

/* The masked thread (thread 0) writes a shared scale, then a barrier. */
static void masked_scale(const double *x, double *y, int n) {
  double scale = 0;
#pragma omp parallel
  {
#pragma omp masked
    scale = exp(0.1 * (x[0] + x[n - 1]));
#pragma omp barrier
#pragma omp for schedule(static, 6)
    for (int i = 0; i < n; i++)
      y[i] = scale * sin(x[i]);
  }
}

/* master, and single nowait: the master thread sums
 * the odd entries, a single thread the even ones. */
static void master_single(const double *x, double *y, int n) {
  double odd = 0, even = 0;
#pragma omp parallel
  {
#pragma omp master
    for (int i = 1; i < n; i += 2)
      odd += x[i];
#pragma omp single nowait
    for (int i = 0; i < n; i += 2)
      even += x[i] * x[i];
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = x[i] * (i % 2 ? odd : even);
  }
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_VECTOR("single", normalise, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("masked + barrier", masked_scale, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("master + single nowait", master_single, x, N, N, 1e-6);
  return ad_test_finish();
}
