// std::vector<double> and std::vector<int> in the differentiated function:
// an index permutation built with push_back (integers only, no derivative),
// a vector<double> sized by the constructor and filled through it, resize,
// emplace_back, iteration with iterators and range-for, and a
// std::vector<double>& parameter with a shadow vector of the same size.
// Checked against closed forms and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <vector>

/* sum_i x[n-1-i] * x[i] through a reversed index vector: 2 x[n-1-i] */
double permuted(const double *x, int n) {
  std::vector<int> idx;
  for (int i = 0; i < n; i++)
    idx.push_back(n - 1 - i);
  std::vector<double> v(n);
  for (int i = 0; i < n; i++)
    v[i] = x[idx[i]] * x[i];
  double s = 0;
  for (double e : v)
    s += e;
  return s;
}
/* A vector grown and shrunk: sum_{i<n} sin(x_i) * (i + 1) */
double grown(const double *x, int n) {
  std::vector<double> v;
  v.reserve(2);
  for (int i = 0; i < n; i++)
    v.emplace_back(std::sin(x[i]));
  v.resize(n + 3, 0.0);
  std::vector<int> w(v.size(), 1);
  for (size_t i = 0; i < w.size(); i++)
    w[i] += (int)i;
  double s = 0;
  for (auto it = v.begin(); it != v.end(); ++it)
    s += *it * w[it - v.begin()];
  v.pop_back();
  return s;
}
/* In place on the caller's vector: v_i <- v_i^2, returns sum v_i */
double square_all(std::vector<double> &v) {
  double s = 0;
  for (double &e : v) {
    e = e * e;
    s += e;
  }
  return s;
}

int main() {
  const int n = 6;
  double x[n], dx[n] = {0}, tx[n] = {0};
  for (int i = 0; i < n; i++)
    x[i] = 0.3 + 0.2 * i;
  __ad_autodiff((void *)permuted, x, dx, n);
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(dx[i], 2 * x[n - 1 - i], 1e-14);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)permuted, x, tx, n), dx[i], 1e-14);
    tx[i] = 0;
    dx[i] = 0;
  }
  __ad_autodiff((void *)grown, x, dx, n);
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(dx[i], std::cos(x[i]) * (i + 1), 1e-14);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)grown, x, tx, n), dx[i], 1e-14);
    tx[i] = 0;
  }
  std::vector<double> v{1.0, -2.0, 0.5}, dv(3, 1.0);
  /* seed 1 on the return and on every v_i written: d/dv_i = 2 v_i * 2 */
  __ad_autodiff((void *)square_all, &v, &dv);
  const double v0[3] = {1.0, -2.0, 0.5};
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(v[i], v0[i] * v0[i], 1e-14);
    CHECK_CLOSE(dv[i], 4 * v0[i], 1e-14);
  }
  std::vector<double> u{1.0, -2.0, 0.5}, tu{0.0, 1.0, 0.0};
  CHECK_CLOSE(__ad_fwddiff((void *)square_all, &u, &tu), -4.0, 1e-14);
  CHECK_CLOSE(tu[1], -4.0, 1e-14);
  return ad_test_finish();
}
