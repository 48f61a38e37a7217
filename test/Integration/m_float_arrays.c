// Reverse and forward mode on float arrays: sums, dot products, outputs, float scalars.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 12

float __ad_autodiff_f(void *, ...);
void __ad_autodiff_void(void *, ...);
void __ad_fwddiff_void(void *, ...);

/* sum_i a x_i^2 + x_i y_i */
static float fsum(const float *x, const float *y, float a, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += a * x[i] * x[i] + x[i] * y[i];
  return s;
}

/* y_i = sinf(x_i) * x_i */
static void fmap(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = sinf(x[i]) * x[i];
}

/* Finite differences in float need a step near 1e-2, while ad_fd_array steps by 1e-6:
 * the wrappers read u = x / SCALE, so d/du = SCALE * d/dx and a 1e-6 step in u is a
 * 1e-2 step in x. (Unperturbed entries round back to the same float.) */
#define SCALE 1e4
static float FX[N], FY[N], W[N], FA = 0.5f;
static void unscale(const double *u, float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = (float)(u[i] * SCALE);
}
static double fsum_u(double *u, int n) {
  float x[N];
  unscale(u, x, n);
  return fsum(x, FY, FA, n);
}
static double fmap_u(double *u, int n) {
  float x[N], y[N];
  double s = 0;
  unscale(u, x, n);
  fmap(x, y, n);
  for (int i = 0; i < n; i++)
    s += W[i] * y[i];
  return s;
}

int main(void) {
  float dx[N] = {0}, dy[N] = {0};
  double u[N];
  for (int i = 0; i < N; i++) {
    FX[i] = (float)ad_test_uniform(-1.5, 1.5);
    FY[i] = (float)ad_test_uniform(-1.5, 1.5);
    u[i] = FX[i] / SCALE;
  }

  /* Float scalar argument (promoted to double through ...) is __ad_out by default. */
  float da = __ad_autodiff_f((void *)fsum, FX, dx, FY, dy, FA, N);
  double ss = 0;
  for (int i = 0; i < N; i++)
    ss += (double)FX[i] * FX[i];
  CHECK_CLOSE(da, ss, 1e-4);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 2 * FA * FX[i] + FY[i], 1e-4);
    CHECK_CLOSE(dy[i], FX[i], 1e-4);
    CHECK_CLOSE(dx[i], ad_fd_array(fsum_u, u, N, i) / SCALE, 2e-3);
  }

  /* Output float array with a seed w: dx_i = w_i (sin x_i + x_i cos x_i). */
  float y[N], sy[N], gx[N] = {0};
  for (int i = 0; i < N; i++) {
    y[i] = 0;
    sy[i] = W[i] = (float)ad_test_uniform(-1, 1);
  }
  __ad_autodiff_void((void *)fmap, FX, gx, y, sy, N);
  for (int i = 0; i < N; i++) {
    double x = FX[i];
    CHECK_CLOSE(gx[i], W[i] * (sin(x) + x * cos(x)), 1e-4);
    CHECK_CLOSE(gx[i], ad_fd_array(fmap_u, u, N, i) / SCALE, 2e-3);
    CHECK_TRUE(sy[i] == 0.0f);
    CHECK_CLOSE(y[i], sinf(FX[i]) * FX[i], 1e-6);
  }

  /* Forward mode: tangent of y_i along v. */
  float v[N], ty[N] = {0};
  for (int i = 0; i < N; i++)
    v[i] = (float)ad_test_uniform(-1, 1);
  __ad_fwddiff_void((void *)fmap, FX, v, y, ty, N);
  for (int i = 0; i < N; i++) {
    double x = FX[i];
    CHECK_CLOSE(ty[i], v[i] * (sin(x) + x * cos(x)), 1e-4);
  }
  /* Forward with tangent W e_i reproduces the reverse gradient entry. */
  for (int i = 0; i < N; i += 5) {
    float e[N] = {0};
    e[i] = 1;
    __ad_fwddiff_void((void *)fmap, FX, e, y, ty, N);
    CHECK_CLOSE(W[i] * ty[i], gx[i], 1e-5);
  }

  return ad_test_finish();
}
