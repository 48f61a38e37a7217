// Works (keep it working): in a gradient, a block on no cycle runs at most
// once per call, so the values its reverse block needs are kept in stack
// slots instead of a tape record (TapeRecords::recordOnStack): a small
// gradient called in a loop, like ADBench's BA residual (a Rodrigues
// rotation with a branch for the zero angle), never touches the tape. Each
// gradient is checked against central differences and forward mode, at -O0
// and -O2 under valgrind. (A cycle with two entries, made with goto, which
// LoopInfo does not see as a loop, is an error in reverse mode:
// test/Diagnostics/irreducible_loop.c.)
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -S -emit-llvm %s -o - | FileCheck %s
// The branchy gradient keeps its two libm results in registers: no tape.
// CHECK-LABEL: define internal {{.*}} @rotated.ad.gradient(
// CHECK-NOT:   __ad_tape
// CHECK:       {{^}$}}
#include <ad.h>
#include "ad_test.h"

/* Values computed only on one side of a branch: exp and sin results, which
 * their partials read and no block after the join has. */
double rotated(double a, double x, double y) {
  double r;
  if (a * a > 1e-12) {
    double c = cos(a), s = sin(a), e = exp(-a * x);
    r = (x * c - y * s) * e;
  } else {
    r = x - y * a;
  }
  return r * r + y;
}

static double rotated_a(double a) { return rotated(a, 0.7, -1.3); }
static double rotated_x(double x) { return rotated(0.4, x, -1.3); }

int main(void) {
  for (int k = 0; k < 2; k++) {
    double a = k ? 0.0 : 0.4; /* both sides of the branch */
    double da = __ad_autodiff((void *)rotated, a, __ad_const, 0.7,
                              __ad_const, -1.3);
    CHECK_CLOSE(da, __ad_fwddiff((void *)rotated, a, 1.0, __ad_const, 0.7,
                                 __ad_const, -1.3),
                1e-12);
    if (k == 0)
      CHECK_CLOSE(da, ad_fd1(rotated_a, a), 1e-6);
  }
  CHECK_CLOSE(__ad_autodiff((void *)rotated, __ad_const, 0.4, 0.7, __ad_const,
                            -1.3),
              ad_fd1(rotated_x, 0.7), 1e-6);
  return ad_test_finish();
}
