// A taskloop in a differentiated function is not differentiated (its
// iterations are tasks, which libomp may run on any thread at any later
// point): a clear error at its source line, in reverse and forward mode,
// never a silent wrong derivative.
// RUN: not %clang_omp -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_omp -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double squares(double *x, int n) {
  double s[64] = {0}, t = 0;
#pragma omp parallel
#pragma omp single
  // CHECK-DAG: error_taskloop.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate {{(a parallel region of )?}}'squares': OpenMP tasks {{.*}}not differentiated
#pragma omp taskloop
  for (int i = 0; i < n; i++)
    s[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    t += s[i];
  return t;
}

double cubes(double *x, int n) {
  double s[64] = {0}, t = 0;
#pragma omp parallel
#pragma omp single
  // CHECK-DAG: error_taskloop.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate {{(a parallel region of )?}}'cubes': OpenMP tasks {{.*}}not differentiated
#pragma omp taskloop grainsize(4)
  for (int i = 0; i < n; i++)
    s[i] = x[i] * x[i] * x[i];
  for (int i = 0; i < n; i++)
    t += s[i];
  return t;
}

void rev(double *x, double *dx, int n) {
  __ad_autodiff((void *)squares, x, dx, n);
}
double fwd(double *x, double *v, int n) {
  return __ad_fwddiff((void *)cubes, x, v, n);
}
