// Strong zero: a term whose tangent or adjoint is exactly 0 contributes
// exactly 0, whatever its partial, and an argument that fmin/fmax/fdim did not
// choose contributes nothing, whatever its tangent or adjoint. Without it,
// fmax(sqrt(x), c) at x = 0 has the derivative 0 * inf = NaN in both modes
// (sqrt's partial 0.5/sqrt(x) is infinite there), and so do clamps around
// cbrt, pow, asin, acos, log, a division and an overflowing exp, and a vector
// reduction's unchosen lane. Checked at
// points on the singularity (closed forms: the clamp's constant is chosen, so
// the derivative is 0, or the other variable's), at ordinary points (central
// finite differences: the guard changes nothing there), forward against
// reverse, and in a loop that -O3 -fno-math-errno vectorizes. The last RUN line builds the
// same program with the guard off and expects it to fail: the checks see a
// dropped strong zero.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
// RUN: %clang_ad -O3 -fno-math-errno %s -o %t.O3v -lm && %run %t.O3v
// RUN: %clang_ad -O2 -mllvm -ad-strong-zero=off %s -o %t.off -lm
// RUN: not %t.off 2> %t.off.err && grep -q "checks failed" %t.off.err
#include <ad.h>
#include "ad_test.h"

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

/* The two programs. */
static double h(double x, double y) { return sqrt(x) * y; }
static double fmax_sqrt(double x, double y) { return fmax(sqrt(x), 0.5) + y; }

/* Clamps of functions whose partial is infinite at a finite point. */
static double clamp_cbrt(double x) { return fmin(fmax(cbrt(x), 0.25), 2.0); }
static double clamp_pow(double x) { return fmax(pow(x, 0.3), 0.1); }
static double clamp_asin(double x) { return fmin(asin(x), 1.5); }
static double clamp_acos(double x) { return fmin(acos(x), 3.0); }
static double clamp_log(double x) { return fmin(fmax(log(x), -20.0), 20.0); }
static double clamp_exp(double x) { return fmin(exp(x), 1e300); }
/* A branch-free clamp written as selects, around sqrt. */
static double select_sqrt(double x) {
  double s = sqrt(x);
  s = s < 0.5 ? 0.5 : s;
  return s > 2.0 ? 2.0 : s;
}
/* Two variables, the singular one with a zero tangent. */
static double div_clamp(double x, double y) { return fmin(y / x, 1e6) + y; }
static double pow_neg_base(double x, double y) { return pow(x, y); }

/* f at a singular point x0 where the clamp is chosen: both modes give 0,
 * forward with the tangents 0 and 1. (Macros: the entry points need the
 * function itself, not a pointer parameter, at -O0.) */
#define CHECK_CLAMPED(f, x0)                                                   \
  do {                                                                         \
    CHECK_CLOSE(__ad_autodiff((void *)f, x0), 0.0, 0.0);                       \
    CHECK_CLOSE(__ad_fwddiff((void *)f, x0, 0.0), 0.0, 0.0);                   \
    CHECK_CLOSE(__ad_fwddiff((void *)f, x0, 1.0), 0.0, 0.0);                   \
  } while (0)

/* f at an ordinary point: reverse and forward agree with the finite
 * difference. */
#define CHECK_ORDINARY(f, x0)                                                  \
  do {                                                                         \
    double fd_ = ad_fd1(f, x0);                                                \
    CHECK_CLOSE(__ad_autodiff((void *)f, x0), fd_, 1e-6);                      \
    CHECK_CLOSE(__ad_fwddiff((void *)f, x0, 1.0), fd_, 1e-6);                  \
  } while (0)

/* A vector reduction (llvm.vector.reduce.fmax, which the vectorizer also
 * makes of max loops): the lane log(0) = -inf is not chosen. */
typedef double v4 __attribute__((ext_vector_type(4)));
static double reduce_max(double x, double y) {
  v4 v = {log(x), y, 0.5 * y, -1.0};
  return __builtin_reduce_max(v);
}

/* A loop the vectorizer turns into vector code at -O3 (with -fno-math-errno,
 * sqrt is an intrinsic it widens): clamped square roots of an array with
 * zeros, weighted. */
#define N 67
static void clamped_map(const double *x, const double *w, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = w[i] * fmin(fmax(sqrt(x[i]), 0.25), 4.05);
}
void __ad_autodiff_v(void *, ...);
void __ad_fwddiff_v(void *, ...);
static void check_vector_loop(void) {
  double x[N], dx[N], v[N], w[N], dw[N], y[N], dy[N], ty[N], zero[N];
  for (int i = 0; i < N; i++) {
    x[i] = i % 3 == 0 ? 0.0 : 0.01 * i * i; /* zeros, clamps and the middle */
    w[i] = 1.0 + 0.1 * i;
    dx[i] = dw[i] = zero[i] = 0.0;
    dy[i] = 1.0 + 0.01 * i; /* the seed */
    v[i] = i % 2 == 0 ? 0.0 : 1.0; /* zero tangents, also at x = 0 */
  }
  __ad_autodiff_v((void *)clamped_map, x, dx, w, dw, y, dy, __ad_const, N);
  __ad_fwddiff_v((void *)clamped_map, x, v, w, zero, y, ty, __ad_const, N);
  for (int i = 0; i < N; i++) {
    double r = sqrt(x[i]);
    double d = r > 0.25 && r < 4.05 ? w[i] * 0.5 / r : 0.0;
    CHECK_CLOSE(dx[i], d * (1.0 + 0.01 * i), 1e-12);
    CHECK_CLOSE(dw[i], fmin(fmax(r, 0.25), 4.05) * (1.0 + 0.01 * i), 1e-12);
    CHECK_CLOSE(ty[i], d * v[i], 1e-12);
  }
}

int main(void) {
  /* sqrt(0) * y: the tangent is sqrt(0) * dy = 0, not 0 * inf. */
  CHECK_CLOSE(__ad_fwddiff((void *)h, 0.0, 0.0, 2.0, 1.0), 0.0, 0.0);
  CHECK_CLOSE(__ad_fwddiff((void *)fmax_sqrt, 0.0, 0.0, 0.0, 1.0), 1.0, 0.0);
  struct d2 g = __ad_autodiff_d2((void *)fmax_sqrt, 0.0, 0.0);
  CHECK_CLOSE(g.dx, 0.0, 0.0);
  CHECK_CLOSE(g.dy, 1.0, 0.0);

  CHECK_CLAMPED(clamp_cbrt, 0.0);
  CHECK_CLAMPED(clamp_pow, 0.0);
  CHECK_CLAMPED(clamp_asin, 1.0);
  CHECK_CLAMPED(clamp_acos, -1.0);
  CHECK_CLAMPED(clamp_log, 0.0);
  CHECK_CLAMPED(clamp_exp, 1000.0);
  CHECK_CLAMPED(select_sqrt, 0.0);

  CHECK_ORDINARY(clamp_cbrt, 1.5);
  CHECK_ORDINARY(clamp_pow, 0.5);
  CHECK_ORDINARY(clamp_asin, 0.4);
  CHECK_ORDINARY(clamp_acos, 0.4);
  CHECK_ORDINARY(clamp_log, 2.5);
  CHECK_ORDINARY(clamp_exp, 1.5);
  CHECK_ORDINARY(select_sqrt, 1.7);

  /* y / x at x = 0 is inf, clamped to 1e6: d/dx = 0, d/dy = 1 (the "+ y"). */
  g = __ad_autodiff_d2((void *)div_clamp, 0.0, 1.0);
  CHECK_CLOSE(g.dx, 0.0, 0.0);
  CHECK_CLOSE(g.dy, 1.0, 0.0);
  CHECK_CLOSE(__ad_fwddiff((void *)div_clamp, 0.0, 0.0, 1.0, 1.0), 1.0, 0.0);
  CHECK_CLOSE(__ad_fwddiff((void *)div_clamp, 0.0, 1.0, 1.0, 0.0), 0.0, 0.0);
  /* pow(-2, y): d/dy is NaN (log of a negative base), but with a zero
   * tangent of y only d/dx = y x^(y-1) = -4 counts. */
  CHECK_CLOSE(__ad_fwddiff((void *)pow_neg_base, -2.0, 1.0, 2.0, 0.0), -4.0,
              1e-15);
  /* Forward against reverse at an ordinary point of div_clamp:
   * <J v, w> = <v, J^T w> with w = 1. */
  g = __ad_autodiff_d2((void *)div_clamp, 4.0, 3.0);
  double jv = __ad_fwddiff((void *)div_clamp, 4.0, 0.3, 3.0, -0.7);
  CHECK_CLOSE(jv, 0.3 * g.dx - 0.7 * g.dy, 1e-14);
  CHECK_CLOSE(g.dx, -3.0 / 16.0, 1e-15);

  g = __ad_autodiff_d2((void *)reduce_max, 0.0, 2.0);
  CHECK_CLOSE(g.dx, 0.0, 0.0);
  CHECK_CLOSE(g.dy, 1.0, 0.0);
  CHECK_CLOSE(__ad_fwddiff((void *)reduce_max, 0.0, 1.0, 2.0, 1.0), 1.0, 0.0);

  check_vector_loop();
  return ad_test_finish();
}
