// Works (keep it working): long double (x86_fp80) scalars, arrays and results;
// a 12-parameter function mixing int, double, float, const int * (__ad_const)
// and dup pointers, with six __ad_out adjoints returned in a struct, in both
// modes.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
static long double f(long double x, long double y) { return x * x * y + sinl(x) * expl(y); }
long double __ad_autodiff_ld(void *, ...);
struct ld2 { long double a, b; };
struct ld2 __ad_autodiff_ld2(void *, ...);
long double __ad_fwddiff_ld(void *, ...);
static double gl(long double *a, int n) { long double s = 0; for (int i = 0; i < n; i++) s += a[i] * a[i] * a[i]; return (double)s; }
/* 12 params: ints, doubles, pointers, float */
static double big(int n, double a, const double *x, double b, int k, double *y, float c,
                  double d, int m, const int *idx, double e, double f) {
  double s = a * b + c * d - e / f;
  for (int i = 0; i < n; i++) s += x[idx[i]] * y[i] * (k + m);
  for (int i = 0; i < n; i++) y[i] = y[i] * a + e;
  return s + f * f;
}
struct g7 { double a, b; float c; double d, e, f; };
struct g7 __ad_autodiff_g7(void *, ...);
int main(void) {
  {
  long double x = 0.7L, y = -0.4L;
  long double dx = __ad_autodiff_ld((void *)f, x, __ad_const, y);
  CHECK_CLOSE((double)dx, (double)(2 * x * y + cosl(x) * expl(y)), 1e-15);
  struct ld2 d = __ad_autodiff_ld2((void *)f, x, y);
  CHECK_CLOSE((double)d.a, (double)(2 * x * y + cosl(x) * expl(y)), 1e-15);
  CHECK_CLOSE((double)d.b, (double)(x * x + sinl(x) * expl(y)), 1e-15);
  long double t = __ad_fwddiff_ld((void *)f, x, 1.0L, y, 2.0L);
  CHECK_CLOSE((double)t, (double)(d.a + 2 * d.b), 1e-15);
  long double a[3] = {1, 2, 3}, da[3] = {0};
  __ad_autodiff((void *)gl, a, da, 3);
  for (int i = 0; i < 3; i++) CHECK_CLOSE((double)da[i], 3.0 * (double)(a[i] * a[i]), 1e-15);
  }
  {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4] = {0.5, -1, 2, 0.25}, y0[4], dy[4];
  int idx[4] = {3, 1, 0, 2};
  for (int i = 0; i < 4; i++) { y0[i] = y[i]; dy[i] = 0.5 * i; }
  double a = 1.3, b = -0.7, d = 2.1, e = 0.9, f = 1.7; float c = 0.25f;
  struct g7 g = __ad_autodiff_g7((void *)big, 4, a, x, dx, b, 2, y, dy, c, d, 3, __ad_const, idx, e, f);
  /* output s seed 1, y_new seeds w_i = 0.5 i */
  double wa = b, wsumy = 0, wsum = 0;
  for (int i = 0; i < 4; i++) { wa += 0.5 * i * y0[i]; wsum += 0.5 * i; }
  CHECK_CLOSE(g.a, wa, 1e-12);
  CHECK_CLOSE(g.b, a, 1e-12);
  CHECK_CLOSE(g.c, d, 1e-6);
  CHECK_CLOSE(g.d, c, 1e-12);
  CHECK_CLOSE(g.e, -1 / f + wsum, 1e-12);
  CHECK_CLOSE(g.f, e / (f * f) + 2 * f, 1e-12);
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(dx[idx[i]], y0[i] * 5, 1e-12);
    CHECK_CLOSE(dy[i], x[idx[i]] * 5 + 0.5 * i * a, 1e-12);
    CHECK_CLOSE(y[i], y0[i] * a + e, 1e-15);
  }
  (void)wsumy;
  /* forward mode, tangent in a only */
  double tx[4] = {0}, ty[4] = {0};
  for (int i = 0; i < 4; i++) y[i] = y0[i];
  double t = __ad_fwddiff((void *)big, 4, a, 1.0, x, tx, b, 0.0, 2, y, ty, c, 0.0f, d, 0.0, 3, __ad_const, idx, e, 0.0, f, 0.0);
  CHECK_CLOSE(t, b, 1e-12);
  for (int i = 0; i < 4; i++) CHECK_CLOSE(ty[i], y0[i], 1e-12);
  }
  return ad_test_finish();
}
