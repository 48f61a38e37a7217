// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks float libm calls (sinf cosf expf logf sqrtf powf tanhf atan2f fabsf fmaxf), both modes.
#include <ad.h>
#include "ad_test.h"

#define TOL 1e-5
/* Float AD derivative vs a closed form in double and the FD of a double twin. */
#define CHECK_DERIV(ad, exact, fd)                                             \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), TOL);                                           \
    CHECK_CLOSE((ad), (fd), TOL);                                              \
  } while (0)
/* f: float function; fd: its double twin; df: closed-form derivative in double. */
#define CHECK_FN(f, fd, df, x)                                                 \
  do {                                                                         \
    float r_ = __ad_autodiff_f((void *)f, x);                                  \
    float t_ = __ad_fwddiff_f((void *)f, x, 1.0f);                             \
    double X_ = (x);                                                           \
    CHECK_DERIV(r_, df(X_), ad_fd1(fd, X_));                                   \
    CHECK_DERIV(t_, df(X_), ad_fd1(fd, X_));                                   \
  } while (0)

float __ad_autodiff_f(void *, ...);
float __ad_fwddiff_f(void *, ...);

static float f1(float x) { return sinf(x) * cosf(2.0f * x); }
static double f1d(double x) { return sin(x) * cos(2.0 * x); }
static double d1(double x) { return cos(x) * cos(2.0 * x) - 2.0 * sin(x) * sin(2.0 * x); }
static float f2(float x) { return expf(-0.5f * x * x); }
static double f2d(double x) { return exp(-0.5 * x * x); }
static double d2(double x) { return -x * exp(-0.5 * x * x); }
static float f3(float x) { return logf(1.0f + x * x) + sqrtf(x * x + 2.0f); }
static double f3d(double x) { return log(1.0 + x * x) + sqrt(x * x + 2.0); }
static double d3(double x) { return 2.0 * x / (1.0 + x * x) + x / sqrt(x * x + 2.0); }
static float f4(float x) { return tanhf(x) * fabsf(x); }
static double f4d(double x) { return tanh(x) * fabs(x); }
static double d4(double x) {
  double t = tanh(x);
  return (1 - t * t) * fabs(x) + t * (x < 0 ? -1 : 1);
}
static float f5(float x) { return fmaxf(x, 0.5f) * x; }
static double f5d(double x) { return fmax(x, 0.5) * x; }
static double d5(double x) { return x > 0.5 ? 2.0 * x : 0.5; }

static float f_pow(float x, float y) { return powf(x, y); }
static double pow_a(double *p, int n) { (void)n; return pow(p[0], p[1]); }
static float f_atan2(float y, float x) { return atan2f(y, x); }
static double atan2_a(double *p, int n) { (void)n; return atan2(p[0], p[1]); }

int main(void) {
  static const float xs[] = {-1.4f, -0.3f, 0.2f, 0.7f, 1.5f};
  for (int k = 0; k < 5; k++) {
    float x = xs[k];
    CHECK_FN(f1, f1d, d1, x);
    CHECK_FN(f2, f2d, d2, x);
    CHECK_FN(f3, f3d, d3, x);
    CHECK_FN(f4, f4d, d4, x);
    CHECK_FN(f5, f5d, d5, x);

    float b = fabsf(x) + 0.3f, e = xs[4 - k] * 2.0f;
    double B = b, E = e, p[2] = {B, E};
    double ebx = E * pow(B, E - 1.0), eby = pow(B, E) * log(B);
    CHECK_DERIV(__ad_autodiff_f((void *)f_pow, b, __ad_const, e), ebx, ad_fd_array(pow_a, p, 2, 0));
    CHECK_DERIV(__ad_autodiff_f((void *)f_pow, __ad_const, b, e), eby, ad_fd_array(pow_a, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff_f((void *)f_pow, b, 1.0f, e, 0.0f), ebx, ad_fd_array(pow_a, p, 2, 0));

    float y = xs[(k + 2) % 5];
    double Y = y, X = x, q[2] = {Y, X}, r2 = X * X + Y * Y;
    CHECK_DERIV(__ad_autodiff_f((void *)f_atan2, y, __ad_const, x), X / r2,
                ad_fd_array(atan2_a, q, 2, 0));
    /* The header's double-returning prototype gives the float adjoint widened. */
    CHECK_DERIV(__ad_autodiff((void *)f_atan2, __ad_const, y, x), -Y / r2,
                ad_fd_array(atan2_a, q, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)f_atan2, y, 1.0f, x, 1.0f), (X - Y) / r2, TOL);
  }
  return ad_test_finish();
}
