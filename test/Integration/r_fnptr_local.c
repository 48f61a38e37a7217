// Regression: the function to differentiate held in a local function-pointer
// variable (or chosen from a constant table) is a compile-time constant, and
// -O1 and up differentiate it. At -O0 the first argument is a load from the
// variable's stack slot and the plugin said "the first argument is not a
// function". The same happens in C++ with `double (*fp)(double) = [](double x)
// {...};` and with `+[](double x) {...}`. Markers are already traced through
// such loads at -O0; the function pointer should be too.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

static double cube(double x) { return x * x * x; }
static double sq_sin(double x) { return sin(x) * sin(x); }
typedef double (*fn_t)(double);

int main(void) {
  double x = 0.8;
  fn_t fp = cube;
  CHECK_CLOSE(__ad_autodiff((void *)fp, x), 3 * x * x, 1e-12);
  CHECK_CLOSE(__ad_fwddiff((void *)fp, x, 1.0), 3 * x * x, 1e-12);

  void *vp = (void *)sq_sin;
  CHECK_CLOSE(__ad_autodiff(vp, x), 2 * sin(x) * cos(x), 1e-12);

  static const fn_t table[2] = {cube, sq_sin};
  CHECK_CLOSE(__ad_autodiff((void *)table[1], x), sin(2 * x), 1e-12);
  CHECK_CLOSE(3 * x * x, (cube(x + 1e-6) - cube(x - 1e-6)) / 2e-6, 1e-6);
  return ad_test_finish();
}
