// std::pair and std::tuple in the differentiated function: a pair of
// differentiated values returned by a helper and unpacked with structured
// bindings, std::make_pair and std::make_tuple, std::get, std::tie, a
// tuple mixing an int, a double and a pointer. Checked against closed forms
// and forward against reverse. (An array of std::pair<int, double> sorted by
// key is lib_cxx_sort_pairs.cpp.)
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <tuple>
#include <utility>

static std::pair<double, double> polar_parts(double r, double t) {
  return std::make_pair(r * std::cos(t), r * std::sin(t));
}
static std::tuple<int, double, const double *> pick(const double *x, int i) {
  return std::make_tuple(i, x[i] * x[i], x + i);
}

/* (r cos t)^2 * (r sin t) = r^3 cos^2 t sin t */
double parts(double r, double t) {
  auto [c, s] = polar_parts(r, t);
  double a, b;
  std::tie(a, b) = std::make_pair(c * c, s);
  return a * b;
}
/* x_2^2 * 2 + x_3: a tuple's double and pointer fields */
double fields(const double *x) {
  auto t = pick(x, 2);
  int i = std::get<0>(t);
  const double *p = std::get<2>(t);
  return std::get<1>(t) * i / 1.0 + p[1];
}
struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  double r = 1.3, t = 0.6, c = std::cos(t), s = std::sin(t);
  d2 g = __ad_autodiff_d2((void *)parts, r, t);
  CHECK_CLOSE(g.dx, 3 * r * r * c * c * s, 1e-13);
  CHECK_CLOSE(g.dy, r * r * r * (c * c * c - 2 * c * s * s), 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)parts, r, 0.0, t, 1.0), g.dy, 1e-13);
  double x[4] = {0.5, -1.5, 2.0, 0.25}, dx[4] = {0}, tx[4] = {0};
  __ad_autodiff((void *)fields, x, dx);
  const double want[4] = {0, 0, 4 * x[2], 1};
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(dx[i], want[i], 1e-13);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)fields, x, tx), dx[i], 1e-13);
    tx[i] = 0;
  }
  return ad_test_finish();
}
