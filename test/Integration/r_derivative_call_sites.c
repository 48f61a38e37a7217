// Works (keep it working): a derivative meets its caller as the inliner and
// interprocedural constant propagation would have had it existed when they
// ran (driver/DerivativeCallSites.cpp). The arguments every call passes (the
// seed 1.0, the global arrays, n, scale) are folded into the gradient before
// it is optimized, so no multiplication by the seed is left and the loop is
// unrolled over the five elements; then the gradient, small, is inlined into
// its callers and no copy of it is left. -Rpass=ad reports its size.
// RUN: %clang_ad -O2 %s -S -emit-llvm -o - | FileCheck %s --check-prefix=INLINED
// RUN: %clang_ad -O2 %s -S -emit-llvm -o - -mllvm -ad-inline-derivatives=false | FileCheck %s --check-prefix=FOLDED
// RUN: %clang_ad -O2 %s -o %t -Rpass=ad 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %run %t | FileCheck %s
// RUN: %clang_ad -O0 %s -o %t.O0 -Rpass=ad 2>&1 | FileCheck %s --check-prefix=REMARK-O0
// RUN: %run %t.O0 | FileCheck %s
// CHECK: gradient 6x
//
// INLINED-LABEL: define {{.*}}void @gradient()
// INLINED-NOT: call
// INLINED: fmul <2 x double> %{{[0-9]+}}, splat (double 3.000000e+00)
// INLINED: ret void
// INLINED-NOT: energy.ad.gradient
//
// The parameters (x, n, scale, dx, seed) are unused: every call passed the
// same constants, now in the body.
// FOLDED-LABEL: define internal void @energy.ad.gradient(ptr %0, i32 %1, double %2, ptr %3, double %4)
// FOLDED-NOT: {{%[0-4][^0-9]}}
// FOLDED: fmul <2 x double> %{{[0-9]+}}, splat (double 3.000000e+00)
// FOLDED-NOT: {{%[0-4][^0-9]}}
// FOLDED: ret void
//
// REMARK: remark: 'energy.ad.gradient', derived from 'energy': {{[0-9]+}} instructions in {{[0-9]+}} blocks after optimization; inlined into 2 call site(s)
// REMARK-O0: remark: 'energy.ad.gradient', derived from 'energy': {{[0-9]+}} instructions in {{[0-9]+}} blocks (not optimized)
#include <ad.h>
#include <stdio.h>

/* sum_i scale x[i]^2: d/dx[i] = 2 scale x[i]. */
double energy(const double *x, int n, double scale) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += scale * x[i] * x[i];
  return s;
}

static double x[5] = {1, -2, 3, 0.5, 4}, dx[5];

/* Called from main twice once inlined there: two call sites of one
 * derivative, each inlined. */
void gradient(void) {
  __ad_autodiff((void *)energy, x, dx, __ad_const, 5, __ad_const, 3.0);
}

int main(void) {
  gradient();
  int bad = 0;
  for (int i = 0; i < 5; ++i)
    bad |= dx[i] != 6.0 * x[i];
  printf("%s\n", bad ? "WRONG" : "gradient 6x");
  return bad;
}
