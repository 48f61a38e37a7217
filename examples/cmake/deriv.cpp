// deriv.cpp - reverse and forward mode from C++, checked against closed forms:
// a function template, and a gradient through a std::vector's data.
//
//   logistic(x) = 1 / (1 + e^-x),   logistic'(x) = s (1 - s)
//   norm(x) = sqrt(sum x_i^2),      d norm / d x_i = x_i / norm(x)
#include <ad.h>

#include <cmath>
#include <cstdio>
#include <vector>

template <typename T> T logistic(T x) { return T(1) / (T(1) + std::exp(-x)); }

static double norm(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return std::sqrt(s);
}

static int failures;

static void check(const char *what, double got, double want) {
  bool ok = std::fabs(got - want) <= 1e-12 * (1 + std::fabs(want));
  std::printf("C++ %-14s %.15g (closed form %.15g) %s\n", what, got, want,
              ok ? "ok" : "WRONG");
  failures += !ok;
}

int main() {
  double x = 0.3, s = logistic(x);
  check("reverse ds/dx", __ad_autodiff((void *)logistic<double>, x),
        s * (1 - s));
  check("forward ds/dx", __ad_fwddiff((void *)logistic<double>, x, 1.0),
        s * (1 - s));

  std::vector<double> v{3.0, -4.0, 12.0}, dv(v.size(), 0.0);
  __ad_autodiff((void *)norm, __ad_dup, v.data(), dv.data(), __ad_const,
                (int)v.size());
  for (size_t i = 0; i < v.size(); ++i)
    check("reverse d|v|/dv_i", dv[i], v[i] / 13.0);
  return failures != 0;
}
