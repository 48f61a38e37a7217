// <algorithm> and <numeric> in the differentiated function: std::accumulate
// and std::inner_product over the input, std::transform with a lambda into
// a std::vector<double>, std::sort of an index array (a std::array<int, N>,
// filled by std::iota) by a constant key (comparisons carry no derivative),
// std::max_element, std::min and std::max, std::reverse and std::copy.
// Checked against closed forms and forward against reverse. (Sorting by the
// differentiated values themselves is lib_cxx_sort_by_value.cpp.)
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

constexpr int N = 7;

/* sum x_i + <x, x> = sum x_i + x_i^2 */
double sums(const double *x, int n) {
  return std::accumulate(x, x + n, 0.0) + std::inner_product(x, x + n, x, 0.0);
}
/* sum_i sin(x_i) * 3 */
double transformed(const double *x, int n) {
  std::vector<double> y(n);
  std::transform(x, x + n, y.begin(), [](double v) { return 3 * std::sin(v); });
  std::reverse(y.begin(), y.end());
  std::vector<double> z(n);
  std::copy(y.begin(), y.end(), z.begin());
  return std::accumulate(z.begin(), z.end(), 0.0);
}
/* Weighted by rank of a constant key: the k-th smallest key gets k + 1. */
static const double Key[N] = {0.4, -1.2, 2.5, 0.1, -0.7, 1.9, 0.8};
double ranked(const double *x, int n) {
  std::array<int, N> order;
  std::iota(order.begin(), order.begin() + n, 0);
  std::sort(order.begin(), order.begin() + n,
            [](int a, int b) { return Key[a] < Key[b]; });
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (k + 1) * x[order[k]];
  return s;
}
/* the largest value squared, plus min(x0, x1) * max(x2, x3) */
double extremes(const double *x, int n) {
  const double *m = std::max_element(x, x + n);
  return *m * *m + std::min(x[0], x[1]) * std::max(x[2], x[3]);
}

#define CHECK_BOTH_MODES(f, want)                                              \
  do {                                                                         \
    double dx[N] = {0}, tx[N] = {0};                                           \
    __ad_autodiff((void *)f, x, dx, N);                                        \
    for (int i = 0; i < N; i++) {                                              \
      CHECK_CLOSE(dx[i], want, 1e-14);                                         \
      tx[i] = 1;                                                               \
      CHECK_CLOSE(__ad_fwddiff((void *)f, x, tx, N), dx[i], 1e-14);            \
      tx[i] = 0;                                                               \
    }                                                                          \
  } while (0)

int main() {
  const double x[N] = {0.3, -1.1, 2.4, 0.2, -0.6, 1.8, 0.9};
  CHECK_BOTH_MODES(sums, 1 + 2 * x[i]);
  CHECK_BOTH_MODES(transformed, 3 * std::cos(x[i]));
  /* rank of Key[i] (no ties) */
  auto rank = [&](int i) {
    int r = 0;
    for (int j = 0; j < N; j++)
      r += Key[j] < Key[i];
    return r;
  };
  CHECK_BOTH_MODES(ranked, rank(i) + 1.0);
  /* max is x[2] = 2.5; min(x0, x1) = x1; max(x2, x3) = x2 */
  CHECK_BOTH_MODES(extremes, i == 2 ? 2 * x[2] + x[1] : i == 1 ? x[2] : 0.0);
  return ad_test_finish();
}
