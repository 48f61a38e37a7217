// Exceptions on paths the derivative never takes. A C++ program validates
// its input and throws on bad values; the differentiated function contains
// those throws (and, at -O0, the invokes and landing pads of the objects
// with destructors around them), and a try/catch of its own whose handler
// never runs. The entry-point calls sit inside try blocks in main. The
// derivative is taken where nothing throws; both modes, checked against
// closed forms and central differences.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <stdexcept>
#include <string>

/* Not inlined at -O0: its calls are invokes wherever a destructor must run. */
static double checked_log(double x) {
  if (!(x > 0))
    throw std::domain_error("log of a non-positive value");
  return std::log(x);
}

struct Scope { // A destructor: calls while it lives are invokes at -O0.
  int *depth;
  explicit Scope(int *d) : depth(d) { ++*depth; }
  ~Scope() {
    if (--*depth < 0)
      std::abort();
  }
};

/* x log(x) + y^2, throwing for x <= 0. */
double entropy_term(double x, double y) {
  int depth = 0;
  Scope s(&depth);
  if (y > 1e6)
    throw std::out_of_range("y out of range: " + std::to_string(y));
  return x * checked_log(x) + y * y;
}

/* A handler of its own that never runs for valid input. */
double guarded(double x) {
  int depth = 0;
  try {
    Scope s(&depth);
    return checked_log(x) * std::sin(x);
  } catch (const std::domain_error &) {
    return 0.0;
  }
}

/* A loop that validates each element; the throw sits inside the loop. */
double log_likelihood(const double *p, int n) {
  double s = 0;
  int depth = 0;
  for (int i = 0; i < n; i++) {
    Scope sc(&depth);
    if (p[i] > 1)
      throw std::invalid_argument("probability above one");
    s += checked_log(p[i]);
  }
  return s;
}
static double ll_fd(double *p, int n) { return log_likelihood(p, n); }

struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  for (double x = 0.3; x < 3; x += 0.7) {
    double y = 0.5 * x - 0.2;
    d2 d{};
    try {
      d = __ad_autodiff_d2((void *)entropy_term, x, y);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "unexpected: %s\n", e.what());
      CHECK_TRUE(false);
    }
    CHECK_CLOSE(d.dx, std::log(x) + 1, 1e-13);
    CHECK_CLOSE(d.dy, 2 * y, 1e-13);
    double t = 0;
    try {
      t = __ad_fwddiff((void *)entropy_term, x, 1.0, y, 2.0);
    } catch (...) {
      CHECK_TRUE(false);
    }
    CHECK_CLOSE(t, d.dx + 2 * d.dy, 1e-13);

    double want = std::sin(x) / x + std::log(x) * std::cos(x);
    CHECK_CLOSE(__ad_autodiff((void *)guarded, x), want, 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)guarded, x, 1.0), want, 1e-13);
  }
  /* The primal still throws where the input is invalid. */
  bool threw = false;
  try {
    entropy_term(-1.0, 0.0);
  } catch (const std::domain_error &) {
    threw = true;
  }
  CHECK_TRUE(threw);
  CHECK_TRUE(guarded(-1.0) == 0.0);

  double p[5] = {0.1, 0.25, 0.5, 0.9, 0.05}, g[5] = {};
  try {
    __ad_autodiff((void *)log_likelihood, p, g, __ad_const, 5);
  } catch (...) {
    CHECK_TRUE(false);
  }
  double v[5] = {0.3, -1, 0.5, 2, -0.25}, dot = 0;
  for (int i = 0; i < 5; i++) {
    CHECK_CLOSE(g[i], 1 / p[i], 1e-13);
    CHECK_CLOSE(g[i], ad_fd_array(ll_fd, p, 5, i), 1e-6);
    dot += g[i] * v[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)log_likelihood, p, v, __ad_const, 5), dot,
              1e-13);
  return ad_test_finish();
}
