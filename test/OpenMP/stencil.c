// A 1-D and a 2-D stencil over several time steps, in both modes: each
// point reads its neighbours, so three (five) iterations, on different
// threads at block edges, read the same element, and their adjoints all go
// to its shadow. The steps ping-pong between two buffers, each step a
// parallel loop with its implicit barrier.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 120
#define G 12
#define STEPS 3

/* u' = u + 0.2 (u_{i-1} - 2 u_i + u_{i+1}) - 0.05 u_i^3, fixed ends */
static void heat(const double *x, double *y, int n) {
  double a[N], b[N];
  for (int i = 0; i < n; i++)
    a[i] = x[i];
  double *cur = a, *next = b;
  for (int s = 0; s < STEPS; s++) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? cur[i - 1] : 0, r = i + 1 < n ? cur[i + 1] : 0;
      next[i] =
          cur[i] + 0.2 * (l - 2 * cur[i] + r) - 0.05 * cur[i] * cur[i] * cur[i];
    }
    double *t = cur;
    cur = next;
    next = t;
  }
  for (int i = 0; i < n; i++)
    y[i] = cur[i];
}

/* One 5-point step on a G x G grid, collapse(2), into y directly */
static void laplace(const double *x, double *y, int n) {
  (void)n;
#pragma omp parallel for collapse(2) schedule(static, 7)
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      double c = x[i * G + j];
      double up = i > 0 ? x[(i - 1) * G + j] : 0;
      double dn = i + 1 < G ? x[(i + 1) * G + j] : 0;
      double lf = j > 0 ? x[i * G + j - 1] : 0;
      double rt = j + 1 < G ? x[i * G + j + 1] : 0;
      y[i * G + j] = c * (up + dn + lf + rt - 4 * c);
    }
}

int main(void) {
  double x[N], g[G * G];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  omp_fill(g, G * G, -1, 1);
  OMP_CHECK_VECTOR("heat", heat, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("5-point", laplace, g, G * G, G * G, 1e-6);
  return ad_test_finish();
}
