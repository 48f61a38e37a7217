// A virtual call while objects with destructors are alive (a std::vector
// and a std::string local: with exceptions on, every call in their scope
// is an invoke with a cleanup landing pad) and inside a try block whose
// handler does not run. The canonical primal turns the invokes into calls
// (a derivative has no landing pads), then dispatches the virtual call
// between the overrides this file defines (docs/CXX.md). Checked against
// closed forms, central differences and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

struct Potential {
  virtual ~Potential() = default;
  virtual double energy(double r) const = 0;
};
struct Harmonic : Potential {
  double k;
  explicit Harmonic(double k) : k(k) {}
  double energy(double r) const override { return 0.5 * k * r * r; }
};
struct Morse : Potential {
  double energy(double r) const override {
    if (r > 100)
      throw std::domain_error("r out of range");
    double e = 1 - std::exp(-r);
    return e * e;
  }
};

/* sum_k w_k * p->energy(r) with weights in a vector and a label alive. */
double weighted(double r, const Potential *p) {
  std::vector<double> w{1.0, 2.0, 0.5};
  std::string label("weighted energy");
  double s = 0;
  for (double wk : w)
    s += wk * p->energy(r);
  return s + 0 * label.size();
}

/* The virtual call inside a try block. */
double guarded(double r, const Potential *p) {
  double e;
  try {
    e = p->energy(r);
  } catch (const std::exception &) {
    e = 0;
  }
  return 3 * e;
}

static const Potential *current;
static double weighted_fd(double r) { return weighted(r, current); }
static double guarded_fd(double r) { return guarded(r, current); }

int main() {
  static const Harmonic h(3.0);
  static const Morse m;
  for (double r = 0.25; r < 2; r += 0.5) {
    double em = std::exp(-r), dmorse = 2 * (1 - em) * em;
    const Potential *ps[2] = {&h, &m};
    double want[2] = {3.0 * r, dmorse};
    for (int i = 0; i < 2; i++) {
      current = ps[i];
      double d = __ad_autodiff((void *)weighted, r, __ad_const, ps[i]);
      CHECK_CLOSE(d, 3.5 * want[i], 1e-13);
      CHECK_CLOSE(d, ad_fd1(weighted_fd, r), 1e-6);
      CHECK_CLOSE(__ad_fwddiff((void *)weighted, r, 1.0, __ad_const, ps[i]),
                  d, 1e-13);
      d = __ad_autodiff((void *)guarded, r, __ad_const, ps[i]);
      CHECK_CLOSE(d, 3 * want[i], 1e-13);
      CHECK_CLOSE(d, ad_fd1(guarded_fd, r), 1e-6);
      CHECK_CLOSE(__ad_fwddiff((void *)guarded, r, 1.0, __ad_const, ps[i]), d,
                  1e-13);
    }
  }
  return ad_test_finish();
}
