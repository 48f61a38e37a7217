// parallel for with schedule(static) and schedule(static, 3), in double and
// float, in both modes. Each iteration also reads its neighbour's x, so at a
// chunk's edge two threads read the same element and both adjoints must
// reach its shadow.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 101

/* y_i = x_i sin(x_i) + x_{i+1}^2 / 2 (cyclic) */
static void f_static(const double *x, double *y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    double next = x[(i + 1) % n];
    y[i] = x[i] * sin(x[i]) + 0.5 * next * next;
  }
}

/* The same with chunks of 3, round-robin over the threads. */
static void f_chunked(const double *x, double *y, int n) {
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < n; i++) {
    double next = x[(i + 1) % n];
    y[i] = x[i] * sin(x[i]) + 0.5 * next * next;
  }
}

/* sum_i x_i^3 - x_i x_{i+1}, float: its partial sums written to y first. */
static float f_float(float *x, int n) {
  float y[N];
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * x[i] - x[i] * x[(i + 1) % n];
  float s = 0;
  for (int i = 0; i < n; i++)
    s += y[i];
  return s;
}

static double f_float_twin(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i] - x[i] * x[(i + 1) % n];
  return s;
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  omp_fill(x, N, -2, 2);
  omp_fillf(xf, N, -1, 1);
  OMP_CHECK_VECTOR("static", f_static, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("static,3", f_chunked, x, N, N, 1e-6);
  OMP_CHECK_SCALAR_F("float static,3", f_float, f_float_twin, xf, N, 1e-4);
  return ad_test_finish();
}
