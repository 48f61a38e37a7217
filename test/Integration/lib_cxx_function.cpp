// Lambdas and std::function in the differentiated function: a capturing
// lambda passed to a template and applied twice, a lambda capturing by
// reference stored in a std::function and called in a loop, and an array of
// std::function built and called inside. Checked against closed forms and
// forward against reverse.
//
// std::function calls its target and its manager through pointers kept in
// the object: a choice between the module's functions of their types
// (docs/CXX.md), or direct calls where inlining resolved them (-O2, -O3).
// At -O0 the constructor copies the capturing closure of `stored` with a
// memcpy between untyped pointers, a compile-time error; captureless
// lambdas in a std::function work at -O0 (cxx_function_pointers.cpp).
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <functional>

template <typename F> static double twice(F f, double v) { return f(f(v)); }

/* k (k x^2)^2 with k captured by value: k^3 x^4 */
double captured(double x, double k) {
  auto scale_sq = [k](double t) { return k * t * t; };
  return twice(scale_sq, x);
}
/* sum_{i<4} sin(x i) * y via a std::function */
double stored(double x, double y) {
  std::function<double(double)> g = [&y](double t) { return std::sin(t) * y; };
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += g(x * i);
  return s;
}
/* A table of operations: exp(x) + x^3 + 2x */
double table(double x) {
  std::function<double(double)> ops[3] = {
      [](double t) { return std::exp(t); },
      [](double t) { return t * t * t; },
      [](double t) { return 2 * t; }};
  double s = 0;
  for (auto &op : ops)
    s += op(x);
  return s;
}

struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  double x = 0.7, k = 1.3, y = -0.4;
  d2 c = __ad_autodiff_d2((void *)captured, x, k);
  CHECK_CLOSE(c.dx, 4 * k * k * k * x * x * x, 1e-13);
  CHECK_CLOSE(c.dy, 3 * k * k * x * x * x * x, 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)captured, x, 1.0, k, 0.0), c.dx, 1e-13);
  d2 s = __ad_autodiff_d2((void *)stored, x, y);
  double wx = 0, wy = 0;
  for (int i = 0; i < 4; i++) {
    wx += std::cos(x * i) * i * y;
    wy += std::sin(x * i);
  }
  CHECK_CLOSE(s.dx, wx, 1e-13);
  CHECK_CLOSE(s.dy, wy, 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)stored, x, 0.0, y, 1.0), wy, 1e-13);
  double want = std::exp(x) + 3 * x * x + 2;
  CHECK_CLOSE(__ad_autodiff((void *)table, x), want, 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)table, x, 1.0), want, 1e-13);
  return ad_test_finish();
}
