// std::vector grown inside the differentiated function, as a C++ user
// builds data on the fly: polynomial features appended with push_back (no
// reserve, so the buffer is reallocated and its contents moved several
// times), a vector returned by value from a helper, and pop_back/back() in
// a running-window smoother. (A std::vector of structs grown with
// emplace_back is cxx_vector_of_structs.cpp.) Both modes, checked against closed forms, central differences
// and forward against reverse; valgrind checks that every shadow buffer the
// growth allocates is freed.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <vector>

/* 1, x, x^2, ..., x^deg, then sin(k x): grown one element at a time. */
static std::vector<double> poly_features(double x, int deg) {
  std::vector<double> f;
  double p = 1;
  for (int k = 0; k <= deg; k++) {
    f.push_back(p);
    p *= x;
  }
  for (int k = 1; k <= 3; k++)
    f.push_back(std::sin(k * x));
  return f;
}
/* A linear model on the features: d/dx in closed form. */
double model(double x, const double *w, int deg) {
  std::vector<double> f = poly_features(x, deg);
  double s = 0;
  for (size_t i = 0; i < f.size(); i++)
    s += w[i] * f[i];
  return s;
}

/* A running window: push_back, back(), pop_back. */
double smooth(const double *x, int n) {
  std::vector<double> window;
  double s = 0;
  for (int i = 0; i < n; i++) {
    window.push_back(x[i]);
    if (window.size() > 2) {
      double last = window.back();
      window.pop_back();
      window.back() = 0.5 * (window.back() + last);
    }
    s += window.back() * window.back();
  }
  return s + window.front();
}
static double smooth_fd(double *x, int n) { return smooth(x, n); }

int main() {
  const int deg = 9; /* 10 + 3 features: several reallocations */
  double w[deg + 4];
  for (int i = 0; i < deg + 4; i++)
    w[i] = ad_test_uniform(-1, 1);
  for (double x = -1.2; x < 1.3; x += 0.6) {
    double want = 0, p = 1;
    for (int k = 1; k <= deg; k++) {
      want += w[k] * k * p;
      p *= x;
    }
    for (int k = 1; k <= 3; k++)
      want += w[deg + k] * k * std::cos(k * x);
    CHECK_CLOSE(__ad_autodiff((void *)model, x, __ad_const, w, __ad_const,
                              deg),
                want, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)model, x, 1.0, __ad_const, w,
                             __ad_const, deg),
                want, 1e-12);
  }

  const int n = 11;
  double x[n], v[n], dot = 0;
  for (int i = 0; i < n; i++) {
    x[i] = ad_test_uniform(-1.5, 1.5);
    v[i] = ad_test_uniform(-1, 1);
  }
  dot = 0;
  double gs[n] = {};
  __ad_autodiff((void *)smooth, x, gs, __ad_const, n);
  dot = 0;
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(gs[i], ad_fd_array(smooth_fd, x, n, i), 1e-6);
    dot += gs[i] * v[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)smooth, x, v, __ad_const, n), dot, 1e-12);
  return ad_test_finish();
}
