// Regression: at -O0 a differentiated C++ function that holds an object with a
// destructor across a call to a (static) helper contains `invoke` + a cleanup
// landingpad + `resume`. The plugin synthesized invalid IR for it ("internal
// error: ... Basic Block in function '_Z1fd.ad.gradient' does not have
// terminator!"), for the gradient and for the tangent. -O1 and up (where the
// helper is inlined or known nounwind) and -fno-exceptions were fine.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>

struct Guard {
  double v;
  ~Guard() {}
};
static double twice(double x) { return 2 * x; }

/* 2 x^2 */
double f(double x) {
  Guard g{x};
  return twice(g.v) * x;
}

/* A small class with a user destructor whose method is called from the
 * differentiated free function: (1 + 2x + 3x^2) sin(x). */
class Poly {
public:
  Poly(const double *c, int n) : c_(c), n_(n) {}
  virtual ~Poly() {}
  double eval(double x) const {
    double r = 0;
    for (int i = n_ - 1; i >= 0; i--) r = r * x + c_[i];
    return r;
  }
private:
  const double *c_;
  int n_;
};
double fpoly(double x) {
  double c[3] = {1.0, 2.0, 3.0};
  Poly p(c, 3);
  return p.eval(x) * std::sin(x);
}
static double f_fd(double x) { return f(x); }
static double fpoly_fd(double x) { return fpoly(x); }

int main() {
  for (double x = -1.2; x < 2; x += 0.45) {
    CHECK_CLOSE(__ad_autodiff((void *)f, x), 4 * x, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, 1.0), 4 * x, 1e-12);
    CHECK_CLOSE(4 * x, ad_fd1(f_fd, x), 1e-6);
    double p = 1 + 2 * x + 3 * x * x, dp = 2 + 6 * x;
    double want = dp * std::sin(x) + p * std::cos(x);
    CHECK_CLOSE(__ad_autodiff((void *)fpoly, x), want, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)fpoly, x, 1.0), want, 1e-12);
    CHECK_CLOSE(want, ad_fd1(fpoly_fd, x), 1e-6);
  }
  return ad_test_finish();
}
