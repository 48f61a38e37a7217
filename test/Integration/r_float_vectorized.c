// Works (keep it working): float-only code -- float arrays and float math
// (sinf, expf, logf) -- that -O2/-O3 vectorize to <4 x float>: weighted energy,
// a saxpy-like in-place update with a float __ad_out adjoint, and a
// max-stabilised log-sum-exp written with an if (fmaxf instead vectorizes to
// llvm.vector.reduce.fmax: r_vector_reductions.c); forward mode too.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#define N 37
static float energy(const float *x, const float *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] + sinf(x[i]) * 0.5f;
  return s;
}
static void saxpy(float a, const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i] * y[i];
}
static float softsum(const float *x, int n) {
  float m = x[0];
  for (int i = 1; i < n; i++) if (x[i] > m) m = x[i];
  float s = 0;
  for (int i = 0; i < n; i++) s += expf(x[i] - m);
  return logf(s) + m;
}
float __ad_autodiff_f(void *, ...);
void __ad_autodiff_v(void *, ...);
int main(void) {
  float x[N], w[N], dx[N] = {0}, dw[N] = {0};
  for (int i = 0; i < N; i++) { x[i] = (float)ad_test_uniform(-1, 1); w[i] = (float)ad_test_uniform(0, 2); }
  __ad_autodiff_v((void *)energy, x, dx, w, dw, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 2 * w[i] * x[i] + 0.5 * cos(x[i]), 1e-5);
    CHECK_CLOSE(dw[i], x[i] * x[i], 1e-5);
  }
  float y[N], y0[N], dy[N], dxs[N] = {0};
  for (int i = 0; i < N; i++) { y[i] = y0[i] = (float)ad_test_uniform(-1, 1); dy[i] = 1.0f; }
  float a = 0.7f;
  float da = __ad_autodiff_f((void *)saxpy, a, x, dxs, y, dy, N);
  double want = 0;
  for (int i = 0; i < N; i++) {
    want += x[i];
    CHECK_CLOSE(dxs[i], a, 1e-6);
    CHECK_CLOSE(dy[i], 2 * y0[i], 1e-5);
    CHECK_CLOSE(y[i], a * x[i] + y0[i] * y0[i], 1e-6);
  }
  CHECK_CLOSE(da, want, 1e-5);
  float ds[N] = {0};
  __ad_autodiff_v((void *)softsum, x, ds, N);
  double S = 0; for (int i = 0; i < N; i++) S += exp(x[i]);
  double tot = 0;
  for (int i = 0; i < N; i++) { CHECK_CLOSE(ds[i], exp(x[i]) / S, 1e-5); tot += ds[i]; }
  CHECK_CLOSE(tot, 1.0, 1e-5);
  /* forward */
  float tx[N]; for (int i = 0; i < N; i++) tx[i] = 1.0f;
  float td = __ad_fwddiff((void*)softsum, x, tx, N);
  CHECK_CLOSE(td, 1.0, 1e-5);
  return ad_test_finish();
}
