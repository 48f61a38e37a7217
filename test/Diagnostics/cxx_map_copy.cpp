// A copy of a std::map<int, double> made in the differentiated function and
// grown by more inserts. The copy constructor clones each node's value (a
// std::pair<const int, double>, trivially copyable) with a 16-byte memcpy
// into a fresh node from operator new; the only accesses that type those
// bytes (the key compares, the value reads) reach the nodes through the
// tree's links, which the type analysis does not follow for a layout:
// following pointers through fields merges the tree's header with its nodes
// (a node_base pointer may point to either), and a layout resolved from that
// merge typed the pair's int as a double and its neighbours as pointers, a
// silently wrong gradient. So the copy is an error, at every level. The
// program stays here so that it fails (and is turned into a run test) once
// the analysis types it.
// RUN: not %clangxx_ad -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clangxx_ad -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// CHECK: error: cannot differentiate {{.*}}: cannot tell which bytes of this memory copy hold floating-point data
#include <ad.h>
#include "../Integration/ad_test.h"
#include <map>

constexpr int N = 5;
static int scrambled(int k) { return (k * 37) % 60; }

/* sum over the 40 keys of m^2 * key */
double copied(const double *x, int n) {
  std::map<int, double> m;
  for (int k = 0; k < 20; k++)
    m[2 * scrambled(k)] = x[k % n] * (k + 1);
  std::map<int, double> c = m;
  for (int k = 0; k < 20; k++)
    c[2 * scrambled(k) + 1] = x[k % n] * x[k % n];
  double s = 0;
  for (auto &kv : c)
    s += kv.second * kv.second * kv.first;
  return s;
}

int main() {
  double x[N], dx[N] = {0}, tx[N] = {0}, want[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.3 * i - 0.4;
  __ad_autodiff((void *)copied, x, dx, N);
  for (int k = 0; k < 20; k++) {
    int i = k % N;
    double v = x[i] * (k + 1), w = x[i] * x[i];
    want[i] += 2 * v * (k + 1) * (2 * scrambled(k)) +
               2 * w * 2 * x[i] * (2 * scrambled(k) + 1);
  }
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], want[i], 1e-12);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)copied, x, tx, N), dx[i], 1e-12);
    tx[i] = 0;
  }
  return ad_test_finish();
}
