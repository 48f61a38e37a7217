// Regression: in C++ the entry-point call becomes an `invoke` whenever an object
// with a destructor (std::vector, std::string, any RAII type) is alive at the
// call, with no try block anywhere. The plugin rejected every such call ("the
// call may throw (it is an invoke); hint: call the entry point outside a try
// block") at all -O levels, i.e. almost every C++ main that keeps its data in a
// std::vector. The entry points never throw; the call must be differentiated.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <string>
#include <vector>

static double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (i + 1);
  return s;
}
static double f(double x, double y) { return std::sin(x) * y * y; }
struct d2 { double dx, dy; };
d2 __ad_autodiff_d2(void *, ...);

struct Timer { /* RAII object with a user-provided destructor */
  std::string name;
  ~Timer() { if (name.empty()) std::abort(); }
};

int main() {
  std::vector<double> x{1.0, -2.0, 0.5, 3.0}, dx(4, 0.0);
  Timer t{"grad"};
  __ad_autodiff((void *)sumsq, x.data(), dx.data(), (int)x.size());
  for (int i = 0; i < 4; i++) CHECK_CLOSE(dx[i], 2 * x[i] * (i + 1), 1e-12);

  std::vector<double> tx(4, 1.0);
  double jv = __ad_fwddiff((void *)sumsq, x.data(), tx.data(), (int)x.size());
  double want = 0;
  for (int i = 0; i < 4; i++) want += 2 * x[i] * (i + 1);
  CHECK_CLOSE(jv, want, 1e-12);

  double a = 0.7, b = -1.1;
  d2 g = __ad_autodiff_d2((void *)f, a, b);
  CHECK_CLOSE(g.dx, std::cos(a) * b * b, 1e-12);
  CHECK_CLOSE(g.dy, 2 * std::sin(a) * b, 1e-12);
  CHECK_CLOSE(__ad_fwddiff((void *)f, a, 1.0, b, 0.0), g.dx, 1e-12);
  return ad_test_finish();
}
