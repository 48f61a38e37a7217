// Works (keep it working): structs passed and returned by value.
// {double, double} is passed as two doubles, {float, float} as <2 x float>,
// {float, float, float} as {<2 x float>, float}, {double, int} as (double, i32);
// helpers taking/returning 24-byte structs use byval/sret internally; a struct
// {double, double} is used as __ad_out and returned by a helper.
// (Top-level 24-byte by-value structs: r_struct_byval_out.c.)
// Note: in forward mode a by-value {double, double} argument is two doubles at
// the IR level, so it needs one tangent per field (x, dx, y, dy), not a
// struct tangent right after the struct; that is not exercised here.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"

typedef struct { double x, y; } V2;
typedef struct { double x, y, z; } V3;
typedef struct { float x, y; } F2;
typedef struct { float x, y, z; } F3;
typedef struct { double v; int n; } DI;

static double norm2(V2 v) { return v.x * v.x + 3 * v.y * v.x + sin(v.y); }
static V2 rot(V2 v, double t) {
  V2 r = {cos(t) * v.x - sin(t) * v.y, sin(t) * v.x + cos(t) * v.y};
  return r;
}
static double use_rot(double t, double a) {
  V2 v = {a, 2 * a};
  V2 r = rot(v, t);
  return r.x * r.y;
}
static float nf2(F2 a) { return a.x * a.x * a.y; }
static float nf3(F3 a) { return a.x * a.y * a.z + a.z; }
static double ndi(DI a, double s) { return a.v * a.n * s; }

/* by-value 24-byte structs between helpers: byval arguments, sret results */
__attribute__((noinline)) static double dot3(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__attribute__((noinline)) static V3 cross(V3 a, V3 b) {
  V3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}
static V3 add(V3 a, V3 b) {
  V3 r = {a.x + b.x, a.y + b.y, a.z + b.z};
  return r;
}
/* (p x q).(p + q) + |p|^2 + (p x q).e_z, p = x[0..3), q = x[3..6) */
static double tp(const double *x) {
  V3 p = {x[0], x[1], x[2]}, q = {x[3], x[4], x[5]}, c = cross(p, q);
  return dot3(c, add(p, q)) + dot3(p, p) + c.z;
}

V2 __ad_autodiff_v2(void *, ...);
F2 __ad_autodiff_f2(void *, ...);
F3 __ad_autodiff_f3(void *, ...);
struct d2 { double a, b; };
struct d2 __ad_autodiff_d2(void *, ...);
V2 __ad_fwddiff_v2(void *, ...);

static double use_rot_a(double *p, int n) { (void)n; return use_rot(p[0], p[1]); }
static double tp_a(double *x, int n) { (void)n; return tp(x); }

int main(void) {
  V2 v = {0.7, -1.3};
  V2 d = __ad_autodiff_v2((void *)norm2, v);
  CHECK_CLOSE(d.x, 2 * v.x + 3 * v.y, 1e-12);
  CHECK_CLOSE(d.y, 3 * v.x + cos(v.y), 1e-12);
  V2 e = __ad_autodiff_v2((void *)norm2, __ad_out, v);
  CHECK_CLOSE(e.x, d.x, 1e-12);
  CHECK_CLOSE(e.y, d.y, 1e-12);
  /* forward: one tangent per field */
  CHECK_CLOSE(__ad_fwddiff((void *)norm2, v.x, 1.0, v.y, 2.0), d.x + 2 * d.y, 1e-12);

  double p[2] = {0.4, 1.2};
  struct d2 q = __ad_autodiff_d2((void *)use_rot, p[0], p[1]);
  /* r.x r.y = a^2 (c - 2s)(s + 2c), c = cos t, s = sin t */
  double c = cos(p[0]), s = sin(p[0]), a = p[1];
  CHECK_CLOSE(q.a, a * a * ((-s - 2 * c) * (s + 2 * c) + (c - 2 * s) * (c - 2 * s)), 1e-12);
  CHECK_CLOSE(q.b, 2 * a * (c - 2 * s) * (s + 2 * c), 1e-12);
  CHECK_CLOSE(q.a, ad_fd_array(use_rot_a, p, 2, 0), 1e-6);
  CHECK_CLOSE(q.b, ad_fd_array(use_rot_a, p, 2, 1), 1e-6);

  /* a function returning {double, double}: forward mode returns its tangent */
  V2 rt = __ad_fwddiff_v2((void *)rot, v.x, 1.0, v.y, 0.0, 0.3, 0.0);
  CHECK_CLOSE(rt.x, cos(0.3), 1e-12);
  CHECK_CLOSE(rt.y, sin(0.3), 1e-12);

  F2 f = {1.5f, -2.0f};
  F2 df = __ad_autodiff_f2((void *)nf2, f);
  CHECK_CLOSE(df.x, 2 * f.x * f.y, 1e-6);
  CHECK_CLOSE(df.y, f.x * f.x, 1e-6);
  F3 g = {1.5f, -2.0f, 0.5f};
  F3 dg = __ad_autodiff_f3((void *)nf3, g);
  CHECK_CLOSE(dg.x, g.y * g.z, 1e-6);
  CHECK_CLOSE(dg.y, g.x * g.z, 1e-6);
  CHECK_CLOSE(dg.z, g.x * g.y + 1, 1e-6);
  DI di = {0.7, 3};
  CHECK_CLOSE(__ad_autodiff((void *)ndi, __ad_const, di, 2.0), 2.1, 1e-12);

  for (int t = 0; t < 3; t++) {
    double x[6], dx[6] = {0}, tx[6];
    for (int i = 0; i < 6; i++) { x[i] = ad_test_uniform(-1, 1); tx[i] = ad_test_uniform(-1, 1); }
    __ad_autodiff((void *)tp, x, dx);
    /* (p x q).(p + q) == 0; c.z = p0 q1 - p1 q0 */
    double want[6] = {2 * x[0] + x[4], 2 * x[1] - x[3], 2 * x[2], -x[1], x[0], 0};
    double jv = 0;
    for (int i = 0; i < 6; i++) {
      CHECK_CLOSE(dx[i], want[i], 1e-12);
      CHECK_CLOSE(dx[i], ad_fd_array(tp_a, x, 6, i), 1e-6);
      jv += dx[i] * tx[i];
    }
    CHECK_CLOSE(__ad_fwddiff((void *)tp, x, tx), jv, 1e-12);
  }
  return ad_test_finish();
}
