// One pair of rules serving both modes, for a function with mixed
// parameters: double and float (differentiated), int and const pointer
// (values only), and for a float function. Forward and reverse results must
// agree with each other, with the closed form and with finite differences;
// the rules are called with the primal arguments unchanged.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

/* w[0] * x^2 + n * sin(y) * w[1], in a separate function the plugin would
 * otherwise differentiate itself. */
double wmix(double x, float y, int n, const double *w) {
  return w[0] * x * x + n * sinf(y) * w[1];
}
static int bad_args;
static void check_args(int n, const double *w) { bad_args += n != 3 || w[1] != -0.5; }

double wmix_fwd(double x, float y, int n, const double *w, double dx, float dy) {
  check_args(n, w);
  return 2 * w[0] * x * dx + n * cosf(y) * w[1] * dy;
}
void wmix_rev(double x, float y, int n, const double *w, double dret,
              double *dx, float *dy) {
  check_args(n, w);
  *dx += 2 * w[0] * x * dret;
  *dy += (float)(n * cosf(y) * w[1] * dret);
}
AD_FORWARD_RULE(wmix, wmix_fwd);
AD_REVERSE_RULE(wmix, wmix_rev);

float cubef(float x) { return x * x * x; }
float cubef_fwd(float x, float dx) { return 3 * x * x * dx; }
void cubef_rev(float x, float dret, float *dx) { *dx += 3 * x * x * dret; }
AD_FORWARD_RULE(cubef, cubef_fwd);
AD_REVERSE_RULE(cubef, cubef_rev);

static const double W[2] = {1.5, -0.5};

/* h(a, b) = wmix(a, b, 3, W) * a + cubef(b) */
static double h(double a, float b) {
  return wmix(a, b, 3, W) * a + cubef(b);
}
static float hf(float b) { return cubef(b) * 2 + cubef(b * b); }
/* h along a, at the current b, for finite differences */
static float B;
static double ha(double a) { return h(a, B); }

struct dd { double da; float db; };
struct dd __ad_autodiff_dd(void *, ...);
float __ad_autodiff_f(void *, ...);
float __ad_fwddiff_f(void *, ...);

int main(void) {
  for (int k = 0; k < 4; k++) {
    double a = ad_test_uniform(-2, 2);
    float b = (float)ad_test_uniform(-1, 1);
    double wm = W[0] * a * a + 3 * sinf(b) * W[1];
    double dha = 2 * W[0] * a * a + wm;
    double dhb = 3 * cosf(b) * W[1] * a + 3 * b * b;
    struct dd r = __ad_autodiff_dd((void *)h, a, b);
    double ta = __ad_fwddiff((void *)h, a, 1.0, b, 0.0);
    double tb = __ad_fwddiff((void *)h, a, 0.0, b, 1.0);
    CHECK_CLOSE(r.da, dha, 1e-6);
    CHECK_CLOSE(r.db, dhb, 1e-5);
    CHECK_CLOSE(ta, r.da, 1e-6);
    CHECK_CLOSE(tb, r.db, 1e-5);
    B = b;
    CHECK_CLOSE(r.da, ad_fd1(ha, a), 1e-5);
    /* float b: a step far above float's ulp */
    float hb = 1e-2f;
    CHECK_CLOSE(r.db, (h(a, b + hb) - h(a, b - hb)) / (2.0 * hb), 1e-3);

    float dhf = 6 * b * b + 3 * powf(b, 4) * 2 * b;
    CHECK_CLOSE(__ad_autodiff_f((void *)hf, b), dhf, 1e-5);
    CHECK_CLOSE(__ad_fwddiff_f((void *)hf, b, 1.0f), dhf, 1e-5);
  }
  CHECK_TRUE(bad_args == 0);
  return ad_test_finish();
}
