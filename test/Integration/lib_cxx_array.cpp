// std::array in the differentiated function: a std::array<double, N> built
// from the input, a constant std::array<int, N> table of indices, fill,
// at(), range-for, a std::array returned by value from a helper and passed by
// reference, and a std::array<double, 3> parameter with a shadow. Checked
// against closed forms and forward against reverse.
// Regression (-O1): the copy scaled() returns is a memcpy into a local whose
// lifetime ends in the forward sweep; run-time checks (ReloadVersioning) let
// the reverse sweep read it again, from a stack slot the backend had given to
// another local: a silently wrong gradient. Locals with lifetime markers are
// never read back now.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <array>
#include <cmath>

constexpr int N = 5;
using Vec = std::array<double, N>;

static Vec scaled(const Vec &a, double k) {
  Vec r;
  for (int i = 0; i < N; i++)
    r[i] = a[i] * k;
  return r;
}
static double dot(const Vec &a, const Vec &b) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * b[i];
  return s;
}
/* sum_i 2 x_i x_{p(i)} * w_i + sum_i x_i, p a fixed permutation */
double f(const double *x) {
  static const std::array<int, N> perm{3, 0, 4, 1, 2};
  std::array<double, N> w;
  w.fill(2.0);
  Vec a{}, b{};
  for (int i = 0; i < N; i++) {
    a.at(i) = x[i];
    b[i] = x[perm[i]] * w[i];
  }
  double s = dot(scaled(a, 1.0), b);
  for (double e : a)
    s += e;
  return s;
}
/* |p|^2 * p[0] for a std::array<double, 3> passed by reference */
double cube(const std::array<double, 3> &p) {
  double n2 = 0;
  for (double e : p)
    n2 += e * e;
  return n2 * p[0];
}

int main() {
  const int perm[N] = {3, 0, 4, 1, 2};
  double x[N], dx[N] = {0}, tx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.5 - 0.3 * i;
  __ad_autodiff((void *)f, x, dx);
  for (int j = 0; j < N; j++) {
    /* d/dx_j sum_i 2 x_i x_p(i): 2 x_p(j) + 2 x_i where p(i) = j */
    double want = 2 * x[perm[j]] + 1;
    for (int i = 0; i < N; i++)
      if (perm[i] == j)
        want += 2 * x[i];
    CHECK_CLOSE(dx[j], want, 1e-14);
    tx[j] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)f, x, tx), dx[j], 1e-14);
    tx[j] = 0;
  }
  std::array<double, 3> p{0.5, -1.0, 2.0}, dp{0, 0, 0}, tp{0, 0, 1};
  __ad_autodiff((void *)cube, &p, &dp);
  double n2 = 0.25 + 1 + 4;
  CHECK_CLOSE(dp[0], n2 + 2 * p[0] * p[0], 1e-14);
  CHECK_CLOSE(dp[1], 2 * p[1] * p[0], 1e-14);
  CHECK_CLOSE(dp[2], 2 * p[2] * p[0], 1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)cube, &p, &tp), dp[2], 1e-14);
  return ad_test_finish();
}
