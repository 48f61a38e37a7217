// Works (keep it working): a reverse sweep's downward vector loops compute
// their lanes in memory order where the lanes never meet
// (driver/LaneOrder.cpp), so the reversals of the loaded and stored vectors
// go. A normalization with a shift and a scale whose adjoints are sums: the
// gradient against the closed form, bit for bit the same as with the
// rewrite off (-mllvm -ad-lane-order=false), strict and -ffast-math; and the
// gradient's code has no lane reversal left.
// RUN: %clang_ad -O2 %s -o %t.on -lm && %run %t.on > %t.on.txt
// RUN: %clang_ad -O2 -mllvm -ad-lane-order=false %s -o %t.off -lm && %run %t.off > %t.off.txt
// RUN: diff %t.on.txt %t.off.txt
// RUN: %clang_ad -O2 -ffast-math %s -o %t.fast.on -lm && %run %t.fast.on > %t.fast.on.txt
// RUN: %clang_ad -O2 -ffast-math -mllvm -ad-lane-order=false %s -o %t.fast.off -lm && %run %t.fast.off > %t.fast.off.txt
// RUN: diff %t.fast.on.txt %t.fast.off.txt
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -mllvm -ad-lane-order=false -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// CHECK-LABEL: define internal {{.*}}@normalize.ad.gradient(
// CHECK-NOT:     <i32 3, i32 2, i32 1, i32 0>
// CHECK:         {{^}}}
// OFF-LABEL: define internal {{.*}}@normalize.ad.gradient(
// OFF:         <i32 3, i32 2, i32 1, i32 0>
#include "ad_test.h"
#include <ad.h>

void normalize(float *restrict y, const float *restrict x, float m, float s,
               int n) {
  for (int i = 0; i < n; i++)
    y[i] = (x[i] - m) * s;
}

struct shift_scale {
  float dm, ds;
};
struct shift_scale __ad_autodiff_ss(void *, ...);

int main(void) {
  enum { N = 203 };
  float x[N], y[N], dy[N], w[N], dx[N] = {0};
  float m = 0.25f, s = 1.75f;
  for (int i = 0; i < N; i++) {
    x[i] = (float)ad_test_uniform(-2, 2);
    w[i] = dy[i] = (float)ad_test_uniform(-1, 1);
  }
  struct shift_scale g = __ad_autodiff_ss((void *)normalize, y, dy, x, dx, m,
                                          s, __ad_const, N);
  double sum_w = 0, sum_wx = 0;
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], w[i] * s, 1e-6);
    CHECK_CLOSE(dy[i], 0, 0);
    sum_w += w[i];
    sum_wx += w[i] * ((double)x[i] - m);
  }
  CHECK_CLOSE(g.dm, -s * sum_w, 1e-4);
  CHECK_CLOSE(g.ds, sum_wx, 1e-4);
  for (int i = 0; i < N; i++)
    printf("%a\n", dx[i]);
  printf("%a %a\n", g.dm, g.ds);
  return ad_test_finish();
}
