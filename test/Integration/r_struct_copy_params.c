// Regression: at -O0, `*d = *s` on struct pointer parameters is a memcpy
// between two untyped `ptr`s, and the plugin reported "cannot tell which
// bytes of this memory copy hold floating-point data" for the most ordinary
// C. The layout now comes from the callers, also when the pointers pass
// through several functions and through -O0's parameter allocas, and for a
// struct mixing int, double and pointer fields.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <math.h>

struct S {
  int n;
  double w;
  double *p;
  float f;
};

static void assign(struct S *d, const struct S *s) { *d = *s; }
static void relay(struct S *d, const struct S *s) { assign(d, s); }

static double energy(struct S *in) {
  struct S t;
  relay(&t, in);
  return t.n * sin(t.w) * t.p[0] + t.f * t.f;
}

int main(void) {
  for (int k = 0; k < 3; k++) {
    double v = ad_test_uniform(-2, 2), dv = 0;
    struct S s = {k + 2, ad_test_uniform(-2, 2), &v, (float)ad_test_uniform(-2, 2)};
    struct S ds = {0, 0, &dv, 0};
    __ad_autodiff((void *)energy, &s, &ds);
    CHECK_CLOSE(ds.w, s.n * cos(s.w) * v, 1e-12);
    CHECK_CLOSE(dv, s.n * sin(s.w), 1e-12);
    CHECK_CLOSE(ds.f, 2 * s.f, 1e-6);
    double h = 1e-6, w0 = s.w;
    s.w = w0 + h;
    double ep = energy(&s);
    s.w = w0 - h;
    double em = energy(&s);
    s.w = w0;
    CHECK_CLOSE(ds.w, (ep - em) / (2 * h), 1e-6);
    /* Forward mode along w and v against the reverse gradient. */
    double tv = 0.5;
    struct S ts = {0, 1.0, &tv, 0};
    double dir = __ad_fwddiff((void *)energy, &s, &ts);
    CHECK_CLOSE(dir, ds.w * 1.0 + dv * 0.5, 1e-12);
  }
  return ad_test_finish();
}
