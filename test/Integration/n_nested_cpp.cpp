// Nested derivatives in C++: the inner entry-point call is an invoke (an
// object with a destructor is alive around it), the differentiated
// functions are a template instance, a captureless lambda converted to a
// function pointer, and a function taking a const reference; each second
// derivative in all four combinations against the closed form.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <cstdio>

#define TOL_EXACT 1e-11

struct Guard { // A user-provided destructor: calls around it are invokes.
  int n;
  ~Guard() {
    if (n == 12345)
      std::printf("never\n");
  }
};

static double f(double x, double y) {
  return std::sin(x) * y * y + x * x * x * y;
}

static double dfdx(double x, double y) {
  Guard g{int(y)};
  return __ad_autodiff((void *)f, x, __ad_const, y);
}

template <class T> static T cube(T x) { return x * x * x; }
static double dcube(double x) {
  return __ad_fwddiff((void *)cube<double>, x, 1.0);
}

static double (*const quartic)(double) = [](double x) { return x * x * x * x; };
static double dquartic(double x) { return __ad_autodiff((void *)quartic, x); }

static double by_ref(const double &x) { return std::exp(2 * x); }
static double dby_ref(double x) {
  double d = 0;
  __ad_autodiff((void *)by_ref, &x, &d);
  return d;
}

int main() {
  double x = 0.4, y = 1.7;
  double want = -std::sin(x) * y * y + 6 * x * y; // d2f/dx2
  CHECK_CLOSE(__ad_autodiff((void *)dfdx, x, __ad_const, y), want, TOL_EXACT);
  CHECK_CLOSE(__ad_fwddiff((void *)dfdx, x, 1.0, y, 0.0), want, TOL_EXACT);
  // The mixed partial d/dy (df/dx) = 2 y cos x + 3 x^2.
  CHECK_CLOSE(__ad_fwddiff((void *)dfdx, x, 0.0, y, 1.0),
              2 * y * std::cos(x) + 3 * x * x, TOL_EXACT);
  CHECK_CLOSE(__ad_autodiff((void *)dcube, x), 6 * x, TOL_EXACT);
  CHECK_CLOSE(__ad_fwddiff((void *)dcube, x, 1.0), 6 * x, TOL_EXACT);
  CHECK_CLOSE(__ad_autodiff((void *)dquartic, x), 12 * x * x, TOL_EXACT);
  CHECK_CLOSE(__ad_fwddiff((void *)dquartic, x, 1.0), 12 * x * x, TOL_EXACT);
  CHECK_CLOSE(__ad_autodiff((void *)dby_ref, x), 4 * std::exp(2 * x),
              TOL_EXACT);
  CHECK_CLOSE(__ad_fwddiff((void *)dby_ref, x, 1.0), 4 * std::exp(2 * x),
              TOL_EXACT);
  return ad_test_finish();
}
