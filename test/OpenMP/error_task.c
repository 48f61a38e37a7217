// Explicit tasks (task, taskgroup) in a differentiated function are not
// differentiated: libomp may run a task on any thread at any later point. A
// clear error at the construct's source line, in reverse (task) and forward
// (taskgroup) mode, never a silent wrong derivative. The function named is
// the user's, or the region clang outlined from it.
// RUN: not %clang_omp -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_omp -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double squares(double *x, int n) {
  double s[64] = {0}, t = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: error_task.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate {{(a parallel region of )?}}'squares': OpenMP tasks {{.*}}not differentiated
#pragma omp task
    s[i] = x[i] * x[i];
  }
  for (int i = 0; i < n; i++)
    t += s[i];
  return t;
}

double product(double *x, int n) {
  double s = 0;
  (void)n;
#pragma omp parallel
#pragma omp single
  // CHECK-DAG: error_task.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate {{(a parallel region of )?}}'product': OpenMP tasks {{.*}}not differentiated
#pragma omp taskgroup
  s = x[0] * x[1];
  return s;
}

void rev(double *x, double *dx, int n) {
  __ad_autodiff((void *)squares, x, dx, n);
}
double fwd(double *x, double *v, int n) {
  return __ad_fwddiff((void *)product, x, v, n);
}
