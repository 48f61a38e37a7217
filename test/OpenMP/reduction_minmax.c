// reduction(max) and reduction(min) on double and float, in both modes: the
// adjoint goes to the element that won, whichever thread held it. The values
// are distinct and well apart (finite differences must not change the
// winner). Also max and min of one loop combined, and a max of a computed
// value (its winner's adjoint flows on into the computation).
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 128

static double max_d(double *x, int n) {
  double m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}

static double min_d(double *x, int n) {
  double m = INFINITY;
#pragma omp parallel for reduction(min : m)
  for (int i = 0; i < n; i++)
    m = fmin(m, x[i]);
  return m;
}

/* max_i sin(x_i) x_i^2 - 3 min_i x_i, with fmax and a guided schedule */
static double maxmin(double *x, int n) {
  double hi = -INFINITY, lo = INFINITY;
#pragma omp parallel for reduction(max                                         \
                                   : hi) reduction(min                         \
                                                   : lo) schedule(guided)
  for (int i = 0; i < n; i++) {
    hi = fmax(hi, sin(x[i]) * x[i] * x[i]);
    lo = x[i] < lo ? x[i] : lo;
  }
  return hi - 3 * lo;
}

static float max_f(float *x, int n) {
  float m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++)
    m = fmaxf(m, x[i] * x[i]);
  return m;
}

static double max_f_twin(double *x, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++)
    m = fmax(m, x[i] * x[i]);
  return m;
}

static float min_f(float *x, int n) {
  float m = INFINITY;
#pragma omp parallel for reduction(min : m) schedule(static, 5)
  for (int i = 0; i < n; i++)
    m = x[i] < m ? x[i] : m;
  return m;
}

static double min_f_twin(double *x, int n) {
  double m = INFINITY;
  for (int i = 0; i < n; i++)
    m = x[i] < m ? x[i] : m;
  return m;
}

/* n distinct values in [lo, hi): a shuffled evenly spaced grid. */
static void distinct(double *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++)
    x[i] = lo + (hi - lo) * i / n;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)ad_test_uniform(0, i + 1);
    double t = x[i];
    x[i] = x[j];
    x[j] = t;
  }
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  distinct(x, N, -2, 2);
  /* |x| distinct too, for max(x^2): positive values only */
  for (int i = 0; i < N; i++)
    xf[i] = (float)(0.5 + (x[i] + 2) / 2);
  OMP_CHECK_SCALAR("reduction(max)", max_d, x, N, 1e-6);
  OMP_CHECK_SCALAR("reduction(min)", min_d, x, N, 1e-6);
  OMP_CHECK_SCALAR("reduction(max) reduction(min)", maxmin, x, N, 1e-6);
  OMP_CHECK_SCALAR_F("float reduction(max)", max_f, max_f_twin, xf, N, 1e-4);
  OMP_CHECK_SCALAR_F("float reduction(min)", min_f, min_f_twin, xf, N, 1e-4);
  return ad_test_finish();
}
