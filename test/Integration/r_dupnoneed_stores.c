// Works (keep it working): a gradient leaves out the stores of the primal
// to memory marked __ad_dupnoneed that the function never reads
// (DerivativeSignature::NoNeedArgs): the caller said it does not need those
// values, and nothing in the gradient does either (the adjoints still
// consume and zero the shadows). A layer whose two outputs are written
// only: their stores are left out. A function that reads its output back
// while computing it keeps the stores (a gradient that left them out would
// read stale values: wrong adjoints). Gradients against the closed form, at
// -O0 and -O2 under valgrind.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: remark: gradient of 'prefix_products' leaves out
// CHECK: remark: gradient of 'layer' leaves out {{[0-9]+}} store(s) to __ad_dupnoneed memory it never reads
// CHECK-NOT: remark: gradient of 'prefix_products' leaves out
#include <ad.h>
#include <math.h>
#include "ad_test.h"

#define N 8

void __ad_autodiff_void(void *, ...);

/* y = sin(x) x and z = 2 y, each written once and never read. */
void layer(double *restrict y, double *restrict z, const double *restrict x,
           int n) {
  for (int i = 0; i < n; i++) {
    y[i] = sin(x[i]) * x[i];
    z[i] = 2 * y[i];
  }
}

/* y[i] = x[0] x[1] ... x[i], each entry computed from the one before it,
 * read back from y. */
void prefix_products(double *restrict y, const double *restrict x, int n) {
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * x[i];
}

int main(void) {
  double x[N], y[N], z[N], dy[N], dz[N], dx[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.2 * i;
    y[i] = z[i] = -7;
    dy[i] = 1.0 + i;
    dz[i] = 0.5;
    dx[i] = 0;
  }
  __ad_autodiff_void((void *)layer, __ad_dupnoneed, y, dy, __ad_dupnoneed, z,
                     dz, x, dx, __ad_const, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], (1.0 + i + 2 * 0.5) * (cos(x[i]) * x[i] + sin(x[i])),
                1e-12);
    CHECK_CLOSE(dy[i], 0, 0);
    CHECK_CLOSE(dz[i], 0, 0);
  }

  /* d/dx_k of sum_i w_i prod_{j<=i} x_j = sum_{i>=k} w_i prod_{j<=i} x_j / x_k.
   */
  for (int i = 0; i < N; i++) {
    dy[i] = 1.0 + 0.1 * i;
    dx[i] = 0;
  }
  __ad_autodiff_void((void *)prefix_products, __ad_dupnoneed, y, dy, x, dx,
                     __ad_const, N);
  for (int k = 0; k < N; k++) {
    double want = 0, p = 1;
    for (int i = 0; i < N; i++) {
      p *= x[i];
      if (i >= k)
        want += (1.0 + 0.1 * i) * p / x[k];
    }
    CHECK_CLOSE(dx[k], want, 1e-12);
  }
  return ad_test_finish();
}
