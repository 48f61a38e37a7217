// reduction(+) on double and float, in both modes: the adjoint of the sum
// reaches every thread's partial, and through it every term. Also two
// variables in one clause, and a reduction on a `for` inside a `parallel`
// whose result the region uses after the loop's barrier.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 150

/* sum_i x_i^2 sin(x_i) */
static double sum_d(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * sin(x[i]);
  return s;
}

/* (sum_i x_i)(sum_i x_i^2): two reduction variables */
static double sum_two(double *x, int n) {
  double a = 0, b = 0;
#pragma omp parallel for reduction(+ : a, b) schedule(static, 7)
  for (int i = 0; i < n; i++) {
    a += x[i];
    b += x[i] * x[i];
  }
  return a * b;
}

/* Centre x by its mean, computed by a reduction inside the region, and
 * return sum_i (x_i - mean)^3 over the team's shares. */
static double centred(double *x, int n) {
  double mean = 0, out = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : mean)
    for (int i = 0; i < n; i++)
      mean += x[i] / n;
      /* the for's barrier: every thread sees the final mean */
#pragma omp for reduction(+ : out)
    for (int i = 0; i < n; i++) {
      double d = x[i] - mean;
      out += d * d * d;
    }
  }
  return out;
}

/* float: sum_i x_i exp(x_i / 2) */
static float sum_f(float *x, int n) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * expf(0.5f * x[i]);
  return s;
}

static double sum_f_twin(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * exp(0.5 * x[i]);
  return s;
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  omp_fill(x, N, -2, 2);
  omp_fillf(xf, N, -1, 1);
  OMP_CHECK_SCALAR("reduction(+)", sum_d, x, N, 1e-6);
  OMP_CHECK_SCALAR("reduction(+: a, b)", sum_two, x, N, 1e-6);
  OMP_CHECK_SCALAR("for reduction in parallel", centred, x, N, 1e-6);
  OMP_CHECK_SCALAR_F("float reduction(+)", sum_f, sum_f_twin, xf, N, 1e-4);
  return ad_test_finish();
}
