// Regression: a struct of three doubles passed by value is a `ptr byval(...)`
// parameter in x86-64 IR. API.md: __ad_out is for a "floating-point scalar (or
// struct/vector of them) passed by value", and a by-value struct is not a
// pointer in the source, so it should default to __ad_out and its adjoint be
// returned. The plugin treated it as a pointer: without a marker it demanded a
// shadow ("the shadow of parameter 1 of 'f3' has the wrong type"), an explicit
// __ad_out was refused ("__ad_out needs a floating-point parameter 1"), and
// passing a shadow struct by value "worked" at -O0 but silently gave a zero
// adjoint at -O2 (the shadow is a byval copy). A two-double struct (passed as two
// doubles) already works; see r_struct_by_value.c.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

typedef struct { double x, y, z; } V3;

static double f3(V3 v, double s) { return s * (v.x * v.y + v.z * v.z * v.x) + exp(v.z); }

struct r3 { V3 dv; double ds; };
struct r3 __ad_autodiff_r3(void *, ...);
V3 __ad_autodiff_v3(void *, ...);
double __ad_fwddiff_t(void *, ...);

static double f3_a(double *p, int n) {
  (void)n;
  V3 v = {p[0], p[1], p[2]};
  return f3(v, p[3]);
}

int main(void) {
  for (int k = 0; k < 4; k++) {
    V3 w = {ad_test_uniform(-1, 1), ad_test_uniform(-1, 1), ad_test_uniform(-1, 1)};
    double s = ad_test_uniform(0.5, 2), p[4] = {w.x, w.y, w.z, s};
    double gx = s * (w.y + w.z * w.z), gy = s * w.x, gz = s * 2 * w.z * w.x + exp(w.z);
    double gs = w.x * w.y + w.z * w.z * w.x;

    struct r3 r = __ad_autodiff_r3((void *)f3, w, s); /* defaults: both __ad_out */
    CHECK_CLOSE(r.dv.x, gx, 1e-12);
    CHECK_CLOSE(r.dv.y, gy, 1e-12);
    CHECK_CLOSE(r.dv.z, gz, 1e-12);
    CHECK_CLOSE(r.ds, gs, 1e-12);
    CHECK_CLOSE(r.dv.x, ad_fd_array(f3_a, p, 4, 0), 1e-6);
    CHECK_CLOSE(r.dv.z, ad_fd_array(f3_a, p, 4, 2), 1e-6);

    struct r3 q = __ad_autodiff_r3((void *)f3, __ad_out, w, __ad_out, s);
    CHECK_CLOSE(q.dv.y, gy, 1e-12);
    CHECK_CLOSE(q.ds, gs, 1e-12);

    V3 d = __ad_autodiff_v3((void *)f3, w, __ad_const, s);
    CHECK_CLOSE(d.x, gx, 1e-12);
    CHECK_CLOSE(d.y, gy, 1e-12);
    CHECK_CLOSE(d.z, gz, 1e-12);

    /* forward: the struct's tangent follows it */
    V3 t = {1.0, -2.0, 0.5};
    CHECK_CLOSE(__ad_fwddiff_t((void *)f3, w, t, s, 0.25), gx - 2 * gy + 0.5 * gz + 0.25 * gs, 1e-12);
  }
  return ad_test_finish();
}
