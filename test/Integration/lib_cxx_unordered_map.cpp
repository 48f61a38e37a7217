// std::unordered_map<int, double> in the differentiated function: values
// stored under integer keys with operator[] (growing past the first rehash),
// updated in place, found with find() and count(), iterated, and erased.
// The hash policy's sizing (std::__detail::_Prime_rehash_policy) works on
// integers only: an inactive row. Checked against closed forms and forward
// against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <unordered_map>

constexpr int N = 6;

/* m[k] = x_k * (k + 1) for 40 keys (k mod N picks x), then
   sum over keys of m[k]^2 - 3 m[7] (erased) + m[3] found twice. */
double table(const double *x, int n) {
  std::unordered_map<int, double> m;
  for (int k = 0; k < 40; k++)
    m[k] = x[k % n] * (k + 1);
  for (int k = 0; k < 40; k += 5)
    m[k] *= 2.0;
  double s = 0;
  auto it = m.find(3);
  if (it != m.end() && m.count(3))
    s += 2 * it->second;
  s -= 3 * m[7];
  m.erase(7);
  for (const auto &kv : m)
    s += kv.second * kv.second;
  return s;
}

int main() {
  double x[N], dx[N] = {0}, tx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.2 * i - 0.5;
  __ad_autodiff((void *)table, x, dx, N);
  double want[N] = {0};
  for (int k = 0; k < 40; k++) {
    double c = (k + 1) * (k % 5 == 0 ? 2.0 : 1.0); /* m[k] = c x_i */
    int i = k % N;
    if (k != 7)
      want[i] += 2 * c * c * x[i];
    if (k == 3)
      want[i] += 2 * c;
    if (k == 7)
      want[i] -= 3 * c;
  }
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], want[i], 1e-13);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)table, x, tx, N), dx[i], 1e-13);
    tx[i] = 0;
  }
  return ad_test_finish();
}
