// Works (keep it working): lgamma writes signgam (and errno), the library's
// own state, and no buffer of the program. Taken as writing anything, one
// call anywhere in a function kept every value it loads from its arguments
// on the tape: ADBench's GMM calls lgamma in its Wishart prior, after the
// loops, and so taped ltri[L] once per step of its triangle. Its row says
// what it writes: x[i] is read back instead. An active argument to lgamma is
// still an error (no derivative rule): test/Diagnostics covers unknown calls.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: gradient of 'weighted' caches 0 bytes per call; recomputes
#include <ad.h>
#include <math.h>
#include "ad_test.h"

/* sum of x[i]^3 / 3, plus a constant the prior adds with lgamma. */
double weighted(const double *x, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i] / 3.0;
  return s + lgamma(a);
}

void __ad_autodiff_void(void *, ...);

int main(void) {
  double x[5] = {0.5, -1.25, 2.0, 0.75, -0.3}, dx[5] = {0};
  double a = 3.5;
  __ad_autodiff_void((void *)weighted, x, dx, __ad_const, 5, __ad_const, a);
  for (int i = 0; i < 5; i++)
    CHECK_CLOSE(dx[i], x[i] * x[i], 1e-14);
  return ad_test_failures;
}
