// std::sort of an index array (a std::array<int, N>) by the differentiated
// values it indexes (a comparator lambda capturing the input): each value
// then gets the weight of its rank. The comparisons carry no derivative; the
// gradient is the rank weight. (A std::vector<int> index array is in
// lib_cxx_vector_int.cpp.)
//
// Not yet at -O0: there std::__sort and its helpers are separate functions
// that receive the comparator (which holds the differentiated pointer), and
// a call with any shadowed argument is taken to return a shadowed pointer,
// so __unguarded_partition's int* result "may point to differentiated
// memory but has no shadow", and std::swap<int> then meets an integer copy
// it cannot type. -O1 and up inline the sort.
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <algorithm>
#include <array>
#include <numeric>

constexpr int N = 9;

/* sum_k (k + 1) * (k-th smallest x)^2 */
double ranked(const double *x, int n) {
  std::array<int, N> order;
  std::iota(order.begin(), order.begin() + n, 0);
  std::sort(order.begin(), order.begin() + n,
            [x](int a, int b) { return x[a] < x[b]; });
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (k + 1) * x[order[k]] * x[order[k]];
  return s;
}

int main() {
  const double x[N] = {0.4, -1.2, 2.5, 0.1, -0.7, 1.9, 0.8, -3.0, 1.1};
  auto rank = [&](int i) {
    int r = 0;
    for (int j = 0; j < N; j++)
      r += x[j] < x[i];
    return r;
  };
  double dx[N] = {0}, tx[N] = {0};
  __ad_autodiff((void *)ranked, x, dx, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 2 * (rank(i) + 1.0) * x[i], 1e-14);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)ranked, x, tx, N), dx[i], 1e-14);
    tx[i] = 0;
  }
  return ad_test_finish();
}
