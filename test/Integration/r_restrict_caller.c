// Works (keep it working): a gradient called from a function whose pointer
// parameters are restrict (a CUDA kernel's __restrict__ ones, say) declares
// the pointers it gets from them noalias in its copy of the primal
// (DerivativeSignature::NoAliasArgs), so that what it reads through them is
// read back in the reverse sweep without run-time checks; called with plain
// pointers, the gradient of the same function checks at run time that y
// does not overlap x and tapes x where it does. One restrict parameter
// passed as both of layer's pointers (in place) makes them overlap: that
// call gets the checked gradient, and a gradient that trusted restrict
// there would read back x[i] after y[i] overwrote it. Each gradient against
// the closed form, at -O0 and -O2 under valgrind.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: remark: gradient of 'layer' checks at run time (1 conditions)
// CHECK-DAG: remark: gradient of 'layer' caches 0 bytes per call, 16 bytes per iteration of the loop at line {{[0-9]+}} (where its run-time checks pass: 0 bytes per call);
// CHECK-DAG: remark: gradient of 'layer' caches 0 bytes per call; recomputes
#include "ad_test.h"
#include <ad.h>
#include <math.h>
#define N 8
void __ad_autodiff_void(void *, ...);

/* y[i] = sin(x[i]) * x[i]: as far as layer knows, y may overlap x. */
void layer(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) * x[i];
}

__attribute__((noinline)) void grad_plain(double *y, double *dy,
                                          const double *x, double *dx, int n) {
  __ad_autodiff_void((void *)layer, y, dy, x, dx, __ad_const, n);
}
__attribute__((noinline)) void grad_restrict(double *restrict y,
                                             double *restrict dy,
                                             const double *restrict x,
                                             double *restrict dx, int n) {
  __ad_autodiff_void((void *)layer, y, dy, x, dx, __ad_const, n);
}
/* (Not inlined into main, where the restrict qualifiers would be lost.)
 * One restrict parameter passed as both of layer's pointers (in place):
 * layer's own y and x do overlap, so neither is declared noalias. */
__attribute__((noinline)) void grad_in_place(double *restrict x,
                                             double *restrict dx, int n) {
  __ad_autodiff_void((void *)layer, x, dx, x, dx, __ad_const, n);
}
int main(void) {
  double x[N], y[N], dy[N], dx[N], dx2[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.2 * i;
  for (int i = 0; i < N; i++) {
    dy[i] = 1.0 + i;
    dx[i] = 0;
  }
  grad_plain(y, dy, x, dx, N);
  for (int i = 0; i < N; i++) {
    dy[i] = 1.0 + i;
    dx2[i] = 0;
  }
  grad_restrict(y, dy, x, dx2, N);
  for (int i = 0; i < N; i++) {
    double want = (1.0 + i) * (cos(x[i]) * x[i] + sin(x[i]));
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(dx2[i], want, 1e-12);
  }
  double z[N], dz[N];
  for (int i = 0; i < N; i++) {
    z[i] = x[i];
    dz[i] = 1.0 + i;
  }
  grad_in_place(z, dz, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(dz[i], (1.0 + i) * (cos(x[i]) * x[i] + sin(x[i])), 1e-12);
  return ad_test_finish();
}
