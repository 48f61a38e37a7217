// Works (keep it working): a gradient of -ffast-math code keeps the
// function-wide permissions of the program's flags ("no-nans-fp-math" and
// the like) though the tape's push is inlined into it: the always-inlined
// tape functions grant them all (grantFloatingPointPermissions). The loop
// vectorizer needs them for a maximum reduction: the row maximum of a
// softmax whose exponentials are taped (each overwrites its logit) is a
// vector maxnum in the gradient. The gradient against central differences.
// RUN: %clang_ad -O2 -ffast-math %s -o %t -lm && %run %t
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -ffast-math -S -emit-llvm %s -o - | FileCheck %s
// CHECK: define internal {{.*}}@softmax_in_place.ad.gradient({{.*}}) #[[ATTRS:[0-9]+]]
// CHECK: call {{.*}}<4 x float> @llvm.maxnum.v4f32(
// CHECK: attributes #[[ATTRS]] = { {{.*}}"no-nans-fp-math"="true"
#include "ad_test.h"
#include <ad.h>
#include <math.h>

float softmax_in_place(float *restrict x, const float *restrict w, int n) {
  float m = -INFINITY;
  for (int i = 0; i < n; i++)
    if (x[i] > m)
      m = x[i];
  float s = 0;
  for (int i = 0; i < n; i++) {
    x[i] = expf(x[i] - m);
    s += x[i];
  }
  float loss = 0;
  for (int i = 0; i < n; i++)
    loss += w[i] * x[i] / s;
  return loss;
}

static float value(const float *x0, const float *w, int n) {
  float x[64];
  for (int i = 0; i < n; i++)
    x[i] = x0[i];
  return softmax_in_place(x, w, n);
}

int main(void) {
  enum { N = 37 };
  float x0[N], x[N], dx[N] = {0}, w[N];
  for (int i = 0; i < N; i++) {
    x0[i] = x[i] = (float)ad_test_uniform(-2, 2);
    w[i] = (float)ad_test_uniform(-1, 1);
  }
  x0[7] = x[7] = 3; /* a clear maximum */
  __ad_autodiff((void *)softmax_in_place, x, dx, __ad_const, w, __ad_const,
                N);
  for (int k = 0; k < N; k++) {
    float saved = x0[k], h = 1e-2f;
    x0[k] = saved + h;
    double fp = value(x0, w, N);
    x0[k] = saved - h;
    double fm = value(x0, w, N);
    x0[k] = saved;
    CHECK_CLOSE(dx[k], (fp - fm) / (2 * h), 2e-3);
  }
  return ad_test_finish();
}
