// An explicit barrier between two phases that exchange data through shared
// arrays, in both modes: phase 1 writes t, the barrier, phase 2 reads the
// neighbours' t (written by other threads), another barrier, phase 3
// overwrites t from phase 2's values. The reverse sweep must mirror both
// barriers, or a thread takes t's adjoint before its readers added to it.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 96

/* Each thread owns a contiguous block of indices (by hand, so the phases
 * are plain loops inside one region). */
static void block(int n, int *lo, int *hi) {
  int t = omp_get_thread_num(), nt = omp_get_num_threads();
  *lo = n * t / nt;
  *hi = n * (t + 1) / nt;
}

static void phases(const double *x, double *y, int n) {
  double t[N], u[N];
#pragma omp parallel shared(t, u)
  {
    int lo, hi;
    block(n, &lo, &hi);
    for (int i = lo; i < hi; i++)
      t[i] = sin(x[i]) + x[i] * x[i];
#pragma omp barrier
    for (int i = lo; i < hi; i++)
      u[i] = t[(i + n - 1) % n] * t[(i + 1) % n] - t[i];
#pragma omp barrier
    for (int i = lo; i < hi; i++)
      t[i] = u[(i + 2) % n] * x[i];
#pragma omp barrier
    for (int i = lo; i < hi; i++)
      y[i] = t[i] + t[(i + n / 2) % n];
  }
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_VECTOR("barrier phases", phases, x, N, N, 1e-6);
  return ad_test_finish();
}
