// parallel for collapse(2) over a 2-D grid, in both modes, with a static and
// a dynamic schedule: the collapsed loop's single index is split back into
// (i, j) inside the outlined function.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define R 9
#define C 11

/* x holds a[R] then b[C]; y[i][j] = tanh(a_i b_j) + a_i^2 b_j */
static void f_outer(const double *x, double *y, int n) {
  const double *a = x, *b = x + R;
  (void)n;
#pragma omp parallel for collapse(2)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      y[i * C + j] = tanh(a[i] * b[j]) + a[i] * a[i] * b[j];
}

/* x is an R x C grid; y[i][j] = x_ij * x_(i+1)j - x_i(j+1), zero beyond the
 * edges; dynamic chunks of 5 cells, which cut rows apart. */
static void f_grid(const double *x, double *y, int n) {
  (void)n;
#pragma omp parallel for collapse(2) schedule(dynamic, 5)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      double down = i + 1 < R ? x[(i + 1) * C + j] : 0;
      double right = j + 1 < C ? x[i * C + j + 1] : 0;
      y[i * C + j] = x[i * C + j] * down - right;
    }
}

int main(void) {
  double x[R * C];
  omp_check_team_size();
  omp_fill(x, R * C, -1, 1);
  OMP_CHECK_VECTOR("collapse(2)", f_outer, x, R + C, R * C, 1e-6);
  OMP_CHECK_VECTOR("collapse(2) dynamic,5", f_grid, x, R * C, R * C, 1e-6);
  return ad_test_finish();
}
