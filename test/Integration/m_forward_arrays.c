// Forward mode: dup arrays carry tangents through memory into output arrays and return values.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 9

void __ad_fwddiff_void(void *, ...);

/* y_i = sin(x_i) x_{(i+1) mod n} + s x_i^2 */
static void map(const double *x, double *y, double s, int n) {
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) * x[(i + 1) % n] + s * x[i] * x[i];
}

static double cubes(const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; i++)
    r += x[i] * x[i] * x[i];
  return r;
}

static double cubes_x(double *x, int n) { return cubes(x, n); }

/* In place: x_i <- x_i^2 + x_{i-1} (the updated x_{i-1}). */
static void square_scan(double *x, int n) {
  x[0] = x[0] * x[0];
  for (int i = 1; i < n; i++)
    x[i] = x[i] * x[i] + x[i - 1];
}

int main(void) {
  double x[N], v[N], y[N], dy[N], s = 0.6, ds = -0.4;
  for (int i = 0; i < N; i++) {
    x[i] = ad_test_uniform(-1.5, 1.5);
    v[i] = ad_test_uniform(-1, 1);
    y[i] = dy[i] = 0;
  }

  __ad_fwddiff_void((void *)map, x, v, y, dy, s, ds, N);
  double xp[N], xm[N], yp[N], ym[N], h = 1e-6;
  for (int i = 0; i < N; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  map(xp, yp, s + h * ds, N);
  map(xm, ym, s - h * ds, N);
  for (int i = 0; i < N; i++) {
    int k = (i + 1) % N;
    double want = cos(x[i]) * v[i] * x[k] + sin(x[i]) * v[k] + ds * x[i] * x[i] +
                  2 * s * x[i] * v[i];
    CHECK_CLOSE(dy[i], want, 1e-10);
    CHECK_CLOSE(dy[i], (yp[i] - ym[i]) / (2 * h), 1e-5);
    CHECK_CLOSE(y[i], sin(x[i]) * x[k] + s * x[i] * x[i], 1e-14);
  }

  /* Return value tangent: sum 3 x_i^2 v_i. */
  double t = __ad_fwddiff((void *)cubes, x, v, N);
  double want = 0;
  for (int i = 0; i < N; i++)
    want += 3 * x[i] * x[i] * v[i];
  CHECK_CLOSE(t, want, 1e-10);
  CHECK_CLOSE(t, (cubes(xp, N) - cubes(xm, N)) / (2 * h), 1e-5);
  /* A const array has no tangent. */
  CHECK_TRUE(__ad_fwddiff((void *)cubes, __ad_const, x, N) == 0.0);
  /* Unit tangents give the gradient, one component per call. */
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    double ti = __ad_fwddiff((void *)cubes, x, e, N);
    CHECK_CLOSE(ti, 3 * x[i] * x[i], 1e-10);
    CHECK_CLOSE(ti, ad_fd_array(cubes_x, x, N, i), 1e-5);
  }

  /* In place: the shadow holds the input tangent and receives the output tangent. */
  double z[N], dz[N], zp[N], zm[N];
  for (int i = 0; i < N; i++) {
    z[i] = x[i];
    dz[i] = v[i];
    zp[i] = xp[i];
    zm[i] = xm[i];
  }
  __ad_fwddiff_void((void *)square_scan, z, dz, N);
  square_scan(zp, N);
  square_scan(zm, N);
  double acc = 0;
  for (int i = 0; i < N; i++) {
    acc += 2 * x[i] * v[i]; /* d z_i = 2 x_i v_i + d z_{i-1} */
    CHECK_CLOSE(dz[i], acc, 1e-10);
    CHECK_CLOSE(dz[i], (zp[i] - zm[i]) / (2 * h), 1e-5);
  }
  double z2[N];
  for (int i = 0; i < N; i++)
    z2[i] = x[i];
  square_scan(z2, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(z[i], z2[i], 1e-14);

  return ad_test_finish();
}
