// Iterations inside one parallel region, in both modes: a Jacobi-style
// sweep repeated in a serial loop inside the region (worksharing loops with
// their barriers, and a single that swaps the buffers), a while loop whose
// trip count depends on the data in every iteration (Newton's square root),
// and an update in place (the shadow of x is both the seed and the result).
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 60
#define SWEEPS 6

static double jacobi(double *x, int n) {
  double a[N], b[N], e = 0;
  double *cur = a, *next = b;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = x[i];
    for (int it = 0; it < SWEEPS; it++) {
#pragma omp for
      for (int i = 0; i < n; i++) {
        double l = i ? cur[i - 1] : 0, r = i + 1 < n ? cur[i + 1] : 0;
        next[i] = 0.25 * (l + r) + 0.5 * cur[i] * cur[i];
      }
#pragma omp single
      {
        double *t = cur;
        cur = next;
        next = t;
      }
    }
#pragma omp for reduction(+ : e)
    for (int i = 0; i < n; i++)
      e += cur[i] * x[i];
  }
  return e;
}

/* sum_i sqrt(1 + x_i^2), each root by Newton's iteration */
static double newton(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic)
  for (int i = 0; i < n; i++) {
    double r = 1 + x[i] * x[i], g = r;
    int k = 0;
    while (fabs(g * g - r) > 1e-14 * r && k < 60) {
      g = 0.5 * (g + r / g);
      k++;
    }
    s += g;
  }
  return s;
}

/* x_i <- sin(x_i) x_i in place */
static void in_place(double *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    x[i] = sin(x[i]) * x[i];
}

static void check_in_place(const double *x) {
  double y[N], dy[N], t[N] = {0}, dt[N];
  for (int i = 0; i < N; i++) {
    y[i] = x[i];
    dy[i] = i + 1;
    dt[i] = 1;
  }
  __ad_autodiff_void((void *)in_place, y, dy, N);
  for (int i = 0; i < N; i++) {
    double d = cos(x[i]) * x[i] + sin(x[i]);
    omp_check_close("in place: adjoint", i, dy[i], (i + 1) * d, 1e-10);
    omp_check_close("in place: primal", i, y[i], sin(x[i]) * x[i], 0);
    t[i] = x[i];
  }
  __ad_fwddiff_void((void *)in_place, t, dt, N);
  for (int i = 0; i < N; i++)
    omp_check_close("in place: tangent", i, dt[i], cos(x[i]) * x[i] + sin(x[i]),
                    1e-10);
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("sweeps in one region", jacobi, x, N, 1e-6);
  OMP_CHECK_SCALAR("Newton while loop", newton, x, N, 1e-6);
  check_in_place(x);
  return ad_test_finish();
}
