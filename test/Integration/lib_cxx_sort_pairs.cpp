// An array of std::pair<int, double> sorted by its int key in the
// differentiated function (std::sort swaps whole pairs): each value then
// gets the weight of its key's rank. Checked against the closed form and
// forward against reverse.
// The type analysis types the pairs' int halves (std::swap<int> at -O0, the
// sort's moves at -O2).
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <algorithm>
#include <utility>

/* pairs (key, x_i) sorted by key: sum of rank * value */
double sorted(const double *x) {
  std::pair<int, double> kv[4] = {{3, x[0]}, {1, x[1]}, {4, x[2]}, {2, x[3]}};
  std::sort(kv, kv + 4, [](const std::pair<int, double> &a,
                           const std::pair<int, double> &b) {
    return a.first < b.first;
  });
  double s = 0;
  for (int k = 0; k < 4; k++)
    s += (k + 1) * kv[k].second * kv[k].second;
  return s;
}

int main() {
  double x[4] = {0.5, -1.5, 2.0, 0.25}, dx[4] = {0}, tx[4] = {0};
  __ad_autodiff((void *)sorted, x, dx);
  const int rank[4] = {3, 1, 4, 2}; /* the key is the rank */
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(dx[i], 2 * rank[i] * x[i], 1e-13);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)sorted, x, tx), dx[i], 1e-13);
    tx[i] = 0;
  }
  return ad_test_finish();
}
