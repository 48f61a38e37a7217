// Doacross loops (ordered(n) with depend(sink)/depend(source)) and host
// teams are not differentiated: a clear error at the loop's or the
// construct's source line, in reverse and forward mode, never a silent wrong
// derivative. (A plain `ordered` region is differentiated: ordered.c.)
// RUN: not %clang_omp -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_omp -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double wave(double *x, int n) {
  double y[64] = {0};
#pragma omp parallel for ordered(1)
  // CHECK-DAG: error_doacross.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate {{(a parallel region of )?}}'wave': this OpenMP construct ('__kmpc_doacross_init'{{.*}}) is not differentiated
  for (int i = 1; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
    y[i] = y[i - 1] * 0.5 + x[i] * x[i];
#pragma omp ordered depend(source)
  }
  return y[n - 1];
}

double teams(double *x, int n) {
  double s = 0;
  // CHECK-DAG: error_doacross.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'teams': this OpenMP construct ('__kmpc_fork_teams'{{.*}}) is not differentiated
#pragma omp teams num_teams(2) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

void rev(double *x, double *dx, int n) {
  __ad_autodiff((void *)wave, x, dx, n);
}
double fwd(double *x, double *v, int n) {
  return __ad_fwddiff((void *)teams, x, v, n);
}
