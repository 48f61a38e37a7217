// Regression: a module whose one gradient takes static arrays (mutable
// globals, which the globals' analysis studies before any call is lowered,
// making canonical primals of every function a call reaches) and which also
// takes a derivative of a gradient elsewhere. The canonical primal of the
// inner gradient's caller was made before its entry-point call was lowered,
// and the outer derivative was built from it: "call to '__ad_autodiff',
// which has no body and no derivative rule". Lowering a call now drops the
// canonical primal of the function that held it. Both derivatives are
// checked against closed forms at -O0 and -O2.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include <math.h>
#include "ad_test.h"

static double cube(double x) { return x * x * x; }

/* d/dx x^3 = 3 x^2, by reverse mode. */
static double dcube(double x) { return __ad_autodiff((void *)cube, x); }

__attribute__((noinline)) static double second(double v) {
  return __ad_autodiff((void *)dcube, v); /* 6 v */
}

static double chain(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; i++)
    s = s * x[i];
  return s;
}

static double X[4] = {1.5, -2.0, 0.5, 3.0}, DX[4];

void __ad_autodiff_void(void *, ...);

int main(void) {
  __ad_autodiff_void((void *)chain, X, DX, __ad_const, 4);
  double prod = 1.5 * -2.0 * 0.5 * 3.0;
  for (int i = 0; i < 4; i++)
    CHECK_CLOSE(DX[i], prod / X[i], 1e-14);
  CHECK_CLOSE(second(1.25), 6 * 1.25, 1e-14);
  return ad_test_failures;
}
