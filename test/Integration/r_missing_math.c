// Regression: common <math.h> functions with elementary derivatives had no rule
// ("call to 'asinh', which has no body and no derivative rule"): asinh, acosh,
// atanh, fdim, ldexp (and their float versions). pow, atan2, hypot, cbrt, erf,
// erfc, log1p, expm1, log2, log10, exp2, fmod, sinh, cosh, tanh, asin, acos,
// atan, fmin, fmax, copysign already work and are checked alongside.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);
float __ad_autodiff_f(void *, ...);

/* already supported */
static double known(double x, double y) {
  return pow(x, y) + atan2(y, x) + hypot(x, y) + cbrt(x) + fmin(x, y) + fmax(x * y, 0.1) +
         copysign(x, -1.0) + erf(x) + tanh(y) + log1p(x) + expm1(y) + log2(x) + log10(x) +
         exp2(y) + erfc(y) + fmod(x * 7, y) + sinh(x) * cosh(y) + asin(y / 2) + acos(x / 2) +
         atan(x);
}
/* missing */
static double inv_hyp(double x, double y) { return asinh(x * y) + acosh(1 + x * x) + atanh(y / 3); }
static double misc(double x, double y) { return fdim(x, y) * y + ldexp(x * y, 3); }
static float inv_hypf(float x) { return asinhf(x) + acoshf(1 + x * x) + atanhf(x / 3); }

static double known_a(double *p, int n) { (void)n; return known(p[0], p[1]); }
static double inv_hyp_a(double *p, int n) { (void)n; return inv_hyp(p[0], p[1]); }
static double misc_a(double *p, int n) { (void)n; return misc(p[0], p[1]); }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double p[2] = {ad_test_uniform(0.2, 1.5), ad_test_uniform(0.5, 1.9)}, x = p[0], y = p[1];
    struct d2 d = __ad_autodiff_d2((void *)known, x, y);
    CHECK_CLOSE(d.dx, ad_fd_array(known_a, p, 2, 0), 1e-5);
    CHECK_CLOSE(d.dy, ad_fd_array(known_a, p, 2, 1), 1e-5);
    CHECK_CLOSE(__ad_fwddiff((void *)known, x, 1.0, y, 0.0), d.dx, 1e-12);

    /* d/dx: y/sqrt(1+x^2y^2) + 2x/sqrt((1+x^2)^2-1);  d/dy: x/sqrt(1+x^2y^2) + (1/3)/(1-y^2/9) */
    double q = 1 + x * x;
    double hx = y / sqrt(1 + x * x * y * y) + 2 * x / sqrt(q * q - 1);
    double hy = x / sqrt(1 + x * x * y * y) + (1.0 / 3) / (1 - y * y / 9);
    struct d2 h = __ad_autodiff_d2((void *)inv_hyp, x, y);
    CHECK_CLOSE(h.dx, hx, 1e-10);
    CHECK_CLOSE(h.dy, hy, 1e-10);
    CHECK_CLOSE(hx, ad_fd_array(inv_hyp_a, p, 2, 0), 1e-5);
    CHECK_CLOSE(hy, ad_fd_array(inv_hyp_a, p, 2, 1), 1e-5);
    CHECK_CLOSE(__ad_fwddiff((void *)inv_hyp, x, 1.0, y, 0.0), hx, 1e-10);

    /* fdim(x,y) = max(x-y, 0) */
    double mx = (x > y ? y : 0) + 8 * y, my = (x > y ? x - 2 * y : 0) + 8 * x;
    struct d2 m = __ad_autodiff_d2((void *)misc, x, y);
    CHECK_CLOSE(m.dx, mx, 1e-12);
    CHECK_CLOSE(m.dy, my, 1e-12);
    CHECK_CLOSE(mx, ad_fd_array(misc_a, p, 2, 0), 1e-5);
    CHECK_CLOSE(my, ad_fd_array(misc_a, p, 2, 1), 1e-5);

    float xf = (float)x;
    double X = xf, Q = 1 + X * X;
    CHECK_CLOSE(__ad_autodiff_f((void *)inv_hypf, xf),
                1 / sqrt(1 + X * X) + 2 * X / sqrt(Q * Q - 1) + (1.0 / 3) / (1 - X * X / 9), 1e-5);
  }
  return ad_test_finish();
}
