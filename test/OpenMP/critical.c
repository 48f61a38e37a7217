// critical sections on shared floating-point data, in both modes: each
// thread reduces its share privately and adds it to shared totals inside a
// critical section, and a named critical section keeps a running product.
// The reverse sweep must run the sections' adjoints under the same lock.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 140

/* s1 = sum x_i^2, s2 = sum sin(x_i), p = prod (1 + x_i / 10) over the
 * threads' partial products; returns s1 * s2 + p. */
static double totals(double *x, int n) {
  double s1 = 0, s2 = 0, p = 1;
#pragma omp parallel
  {
    double a = 0, b = 0, q = 1;
#pragma omp for nowait
    for (int i = 0; i < n; i++) {
      a += x[i] * x[i];
      b += sin(x[i]);
      q *= 1 + 0.1 * x[i];
    }
#pragma omp critical
    {
      s1 += a;
      s2 += b;
    }
#pragma omp critical(product)
    p *= q;
  }
  return s1 * s2 + p;
}

/* A critical section inside the loop: a shared accumulator read and
 * written under the lock at every iteration, in whatever order the threads
 * take it. */
static double inside_loop(double *x, int n) {
  double acc = 0;
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i] * x[i];
#pragma omp critical
    acc = acc + t * cos(x[i]);
  }
  return acc;
}

/* float: sum of x_i exp(-x_i^2) through a critical section */
static float totals_f(float *x, int n) {
  float s = 0;
#pragma omp parallel
  {
    float a = 0;
#pragma omp for
    for (int i = 0; i < n; i++)
      a += x[i] * expf(-x[i] * x[i]);
#pragma omp critical
    s += a;
  }
  return s;
}

static double totals_f_twin(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * exp(-x[i] * x[i]);
  return s;
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  omp_fillf(xf, N, -1.5, 1.5);
  OMP_CHECK_SCALAR("critical", totals, x, N, 1e-6);
  OMP_CHECK_SCALAR("critical in loop", inside_loop, x, N, 1e-6);
  OMP_CHECK_SCALAR_F("float critical", totals_f, totals_f_twin, xf, N, 1e-4);
  return ad_test_finish();
}
