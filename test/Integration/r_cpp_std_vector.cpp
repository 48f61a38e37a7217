// std::vector inside and around the differentiated function: a vector built
// from a raw array, a const std::vector<double>& with a shadow vector of the
// same size, push_back growth (operator new/delete and the moves they imply,
// reached through invoke at -O0), and a vector of vectors. Before the invoke
// fixes this crashed the plugin at -O0 (segfault in ReverseBuilder::emitRecords
// while splitting a callee with invoke + cleanup landingpad).
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <vector>

double vsum(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += v[i] * v[i];
  return s;
}
double vref(const std::vector<double> &v) {
  double s = 0;
  for (double e : v) s += std::sin(e);
  return s;
}
/* sum_{i<10} (x i)^2 = 285 x^2 */
double vpush(double x) {
  std::vector<double> v;
  for (int i = 0; i < 10; i++) v.push_back(x * i);
  double s = 0;
  for (double e : v) s += e * e;
  return s;
}
/* rows of a matrix as a vector of vectors: sum_ij a_ij^2 (i + 1) */
double vmat(const std::vector<std::vector<double>> &a) {
  double s = 0;
  for (size_t i = 0; i < a.size(); i++)
    for (double e : a[i]) s += e * e * (double)(i + 1);
  return s;
}

int main() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {};
  __ad_autodiff((void *)vsum, x, dx, 4);
  for (int i = 0; i < 4; i++) CHECK_CLOSE(dx[i], 2 * x[i], 1e-12);
  std::vector<double> v{0.1, 0.2, 0.3}, dv(3, 0.0);
  __ad_autodiff((void *)vref, &v, &dv);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dv[i], std::cos(v[i]), 1e-12);
  CHECK_CLOSE(__ad_autodiff((void *)vpush, 0.5), 2 * 0.5 * 285, 1e-12);
  CHECK_CLOSE(__ad_fwddiff((void *)vpush, 0.5, 1.0), 2 * 0.5 * 285, 1e-12);
  std::vector<std::vector<double>> a{{1.0, -2.0}, {0.5, 3.0, 1.5}}, da{{0.0, 0.0}, {0.0, 0.0, 0.0}};
  __ad_autodiff((void *)vmat, &a, &da);
  for (size_t i = 0; i < a.size(); i++)
    for (size_t j = 0; j < a[i].size(); j++) CHECK_CLOSE(da[i][j], 2 * a[i][j] * (i + 1), 1e-12);
  return ad_test_finish();
}
