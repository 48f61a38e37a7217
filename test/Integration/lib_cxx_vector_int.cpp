// std::vector<int> index arrays in the differentiated function: one sized by
// its constructor (std::vector<int> v(n), zero-filled by std::__fill_a1 at
// -O0), filled by std::iota and sorted by the differentiated values it
// indexes; each value gets the weight of its rank.
// The type analysis types the vector's memory as int (std::__fill_a1 at
// -O0; the heap sort's moves through iterators whose `int *` lives in a
// struct, followed through that field). Everything else here is inactive
// or has rows.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <algorithm>
#include <numeric>
#include <vector>

constexpr int N = 9;

/* sum_k (k + 1) * (k-th smallest x) */
double ranked(const double *x, int n) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [x](int a, int b) { return x[a] < x[b]; });
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (k + 1) * x[order[k]];
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
    CHECK_CLOSE(dx[i], rank(i) + 1.0, 1e-14);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)ranked, x, tx, N), dx[i], 1e-14);
    tx[i] = 0;
  }
  return ad_test_finish();
}
