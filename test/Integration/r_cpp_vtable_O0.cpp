// Regression: a polymorphic class (virtual destructor / virtual method) built
// inside the differentiated function. At -O0 its constructor stores the vtable
// address (a constant global) into the object; the working tree of 03:40 with
// the stored-pointer checks rejected that: "cannot differentiate
// 'View::View(double const*)': pointer '' may point to differentiated memory but
// has no shadow" -- with and without -fno-exceptions. The vtable is never
// differentiated memory. Calls on the object itself (not through a pointer) are
// direct calls, so no indirect-call limitation is involved.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O0 -fno-exceptions %s -o %t.O0n -lm && %run %t.O0n
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>

struct View {
  View(const double *c) : c_(c) {}
  virtual ~View() {}
  virtual double at(int i) const { return c_[i]; }
  const double *c_;
};
/* x * 2x = 2 x^2 */
double f(double x) {
  double c[2] = {x, 2 * x};
  View v(c);
  return v.at(0) * v.at(1);
}
/* constant coefficients: (1 * 2) x sin(x) */
double g(double x) {
  double c[2] = {1.0, 2.0};
  View v(c);
  return v.at(0) * v.at(1) * x * std::sin(x);
}
static double f_fd(double x) { return f(x); }
static double g_fd(double x) { return g(x); }

int main() {
  for (double x = -1.1; x < 1.5; x += 0.6) {
    CHECK_CLOSE(__ad_autodiff((void *)f, x), 4 * x, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 1.0), 4 * x, 1e-12);
    CHECK_CLOSE(4 * x, ad_fd1(f_fd, x), 1e-6);
    double dg = 2 * (std::sin(x) + x * std::cos(x));
    CHECK_CLOSE(__ad_autodiff((void *)g, x), dg, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)g, x, 1.0), dg, 1e-12);
    CHECK_CLOSE(dg, ad_fd1(g_fd, x), 1e-6);
  }
  return ad_test_finish();
}
