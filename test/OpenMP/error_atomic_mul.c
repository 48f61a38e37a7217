// An OpenMP atomic other than += / -= on differentiated data (`*p *= x` is a
// compare-and-swap loop) has no derivative: a clear error at the atomic's
// line, naming the region's function, with an OpenMP hint (not CUDA's).
// RUN: not %clang_omp -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit"
// RUN: not %clang_omp -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit"
#include <ad.h>

void product(const double *x, double *p, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    // CHECK: error_atomic_mul.c:[[@LINE+3]]:{{[0-9]+}}: error: cannot differentiate a parallel region of 'product': compare-and-swap on differentiated memory
    // CHECK-SAME: hint: use an atomic += or -= (#pragma omp atomic), a reduction, or a critical section
#pragma omp atomic
    *p *= x[i];
  }
}

void rev(double *x, double *dx, double *p, double *dp, int n) {
  __ad_autodiff((void *)product, x, dx, p, dp, n);
}
