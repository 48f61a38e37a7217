// reduction(*) on double and float, in both modes: the adjoint of each
// factor is the product of all the others, whatever thread multiplied it in.
// The factors stay near 1 so that the product of 120 of them neither
// overflows nor vanishes.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 120

/* prod_i (1 + x_i / 4 + x_i^2 / 16) */
static double prod_d(double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++)
    p *= 1 + 0.25 * x[i] + x[i] * x[i] / 16;
  return p;
}

/* A product and a sum in one loop, dynamic: (prod_i c_i) * sum_i x_i. */
static double prod_sum(double *x, int n) {
  double p = 1, s = 0;
#pragma omp parallel for reduction(* : p) reduction(+ : s) schedule(dynamic, 8)
  for (int i = 0; i < n; i++) {
    p *= cos(0.2 * x[i]);
    s += x[i];
  }
  return p * s;
}

/* float: prod_i (1 + x_i / 8) */
static float prod_f(float *x, int n) {
  float p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++)
    p *= 1 + 0.125f * x[i];
  return p;
}

static double prod_f_twin(double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++)
    p *= 1 + 0.125 * x[i];
  return p;
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  omp_fillf(xf, N, -1, 1);
  OMP_CHECK_SCALAR("reduction(*)", prod_d, x, N, 1e-6);
  OMP_CHECK_SCALAR("reduction(*) and (+)", prod_sum, x, N, 1e-6);
  OMP_CHECK_SCALAR_F("float reduction(*)", prod_f, prod_f_twin, xf, N, 1e-3);
  return ad_test_finish();
}
