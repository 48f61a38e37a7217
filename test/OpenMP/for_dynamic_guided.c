// parallel for with schedule(dynamic), schedule(dynamic, 4), schedule(guided)
// and schedule(guided, 2), in both modes. Which thread runs an iteration
// changes from run to run, so the reverse sweep must replay the iterations
// each thread ran (or its own record of them), not a recomputed schedule.
// The work per iteration varies (an inner loop of i % 7 steps), so that the
// dynamic schedules really hand out uneven shares.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 97

/* y_i = x_i (1 + x_i)^k / (1 + k) with k = i % 7, by k multiplications */
static inline double work(double xi, int i) {
  double p = xi;
  for (int k = 0; k < i % 7; k++)
    p *= 1 + 0.3 * xi;
  return p / (1 + i % 7);
}

static void f_dynamic(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; i++)
    y[i] = work(x[i], i) + x[n - 1 - i] * x[i];
}

static void f_dynamic4(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < n; i++)
    y[i] = work(x[i], i) + x[n - 1 - i] * x[i];
}

static void f_guided(const double *x, double *y, int n) {
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; i++)
    y[i] = work(x[i], i) + x[n - 1 - i] * x[i];
}

/* Float, guided with a minimum chunk of 2, reduced to a scalar serially. */
static float f_guided2(float *x, int n) {
  float y[N], s = 0;
#pragma omp parallel for schedule(guided, 2)
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i] * (i % 5) + x[(i + 3) % n] * x[i];
  for (int i = 0; i < n; i++)
    s += y[i];
  return s;
}

static double f_guided2_twin(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * (i % 5) + x[(i + 3) % n] * x[i];
  return s;
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  omp_fillf(xf, N, -1, 1);
  OMP_CHECK_VECTOR("dynamic", f_dynamic, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("dynamic,4", f_dynamic4, x, N, N, 1e-6);
  OMP_CHECK_VECTOR("guided", f_guided, x, N, N, 1e-6);
  OMP_CHECK_SCALAR_F("float guided,2", f_guided2, f_guided2_twin, xf, N, 1e-4);
  return ad_test_finish();
}
