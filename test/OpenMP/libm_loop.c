// Loops whose bodies call libm (exp, sin, cos, log, pow, sqrt, tanh), in
// double and float, in both modes, with a reduction: the calls' partials are
// computed in the threads that ran the iterations.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 160

static double mixed(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(guided, 3)
  for (int i = 0; i < n; i++) {
    double a = x[i];
    s += exp(sin(a)) * cos(2 * a) + log(1.5 + a) * sqrt(2 + a) +
         pow(1.2 + a, 1.5) - tanh(a * a);
  }
  return s;
}

static void elementwise(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = exp(-x[i] * x[i]) * sin(3 * x[i]) + atan(x[(i + 1) % n]);
}

static float mixed_f(float *x, int n) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += expf(sinf(x[i])) * cosf(x[i]) + logf(2 + x[i]) * sqrtf(2 + x[i]);
  return s;
}

static double mixed_f_twin(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(sin(x[i])) * cos(x[i]) + log(2 + x[i]) * sqrt(2 + x[i]);
  return s;
}

int main(void) {
  double x[N];
  float xf[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  omp_fillf(xf, N, -1, 1);
  OMP_CHECK_SCALAR("libm reduction", mixed, x, N, 1e-6);
  OMP_CHECK_VECTOR("libm elementwise", elementwise, x, N, N, 1e-6);
  OMP_CHECK_SCALAR_F("float libm reduction", mixed_f, mixed_f_twin, xf, N,
                     1e-4);
  return ad_test_finish();
}
