// Regression: forward mode of a function that returns a struct of three doubles.
// API.md: "The call returns the tangent of f's return value." A 24-byte struct
// is returned through a hidden sret pointer (on f and on the entry point alike),
// and the plugin matched the sret pointer against f's first declared parameter:
// "the value passed for parameter 1 of 'sph' has the wrong type", at every -O
// level. A two-double struct (returned in registers) already works and is
// checked here too.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

typedef struct { double x, y; } V2;
typedef struct { double x, y, z; } V3;

static V2 polar(double r, double t) {
  V2 v = {r * cos(t), r * sin(t)};
  return v;
}
static V3 helix(double r, double t) {
  V3 v = {r * cos(t), r * sin(t), r * t};
  return v;
}
V2 __ad_fwddiff_v2(void *, ...);
V3 __ad_fwddiff_v3(void *, ...);

int main(void) {
  for (int k = 0; k < 4; k++) {
    double r = ad_test_uniform(0.5, 2), t = ad_test_uniform(-3, 3), dr = 0.7, dt = -1.3, h = 1e-6;
    V2 a = __ad_fwddiff_v2((void *)polar, r, dr, t, dt);
    CHECK_CLOSE(a.x, dr * cos(t) - dt * r * sin(t), 1e-12);
    CHECK_CLOSE(a.y, dr * sin(t) + dt * r * cos(t), 1e-12);

    V3 b = __ad_fwddiff_v3((void *)helix, r, dr, t, dt);
    V3 p = helix(r + h * dr, t + h * dt), m = helix(r - h * dr, t - h * dt);
    CHECK_CLOSE(b.x, dr * cos(t) - dt * r * sin(t), 1e-12);
    CHECK_CLOSE(b.y, dr * sin(t) + dt * r * cos(t), 1e-12);
    CHECK_CLOSE(b.z, dr * t + r * dt, 1e-12);
    CHECK_CLOSE(b.x, (p.x - m.x) / (2 * h), 1e-6);
    CHECK_CLOSE(b.z, (p.z - m.z) / (2 * h), 1e-6);
  }
  return ad_test_finish();
}
