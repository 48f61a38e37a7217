// A std::vector of structs grown with emplace_back inside the differentiated
// function (the buffer is reallocated and the structs moved several times),
// then a weighted second moment over it. Checked against central
// differences and forward against reverse.
// At -O0 the move of each struct into the new buffer is a memcpy inside
// std::__new_allocator<Sample>::construct, between two pointers that
// function receives untyped (the vector's old and new buffers): which of
// its bytes are doubles is known to no code the type analysis follows, so
// it is a compile-time error, never a wrong derivative. -O1 and up inline
// the move into typed loads and stores.
// RUN: not %clangxx_ad -O0 -fno-crash-diagnostics %s -o %t.O0 -lm 2>&1 | FileCheck %s --check-prefix=O0 --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// O0: error: cannot differentiate {{.*}}construct{{.*}}: cannot tell which bytes of this memory copy hold floating-point data
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <vector>

struct Sample {
  double pos, weight;
  int bin;
  Sample(double p, double w, int b) : pos(p), weight(w), bin(b) {}
};
/* Samples built with emplace_back, then a weighted second moment. */
double moment(const double *x, int n) {
  std::vector<Sample> s;
  for (int i = 0; i < n; i++)
    s.emplace_back(x[i], std::exp(-x[i] * x[i]), i % 3);
  double num = 0, den = 0;
  for (const Sample &e : s) {
    num += e.weight * e.pos * e.pos * (e.bin + 1);
    den += e.weight;
  }
  return num / den;
}
static double moment_fd(double *x, int n) { return moment(x, n); }

int main() {
  const int n = 11;
  double x[n], g[n] = {}, v[n], dot = 0;
  for (int i = 0; i < n; i++) {
    x[i] = ad_test_uniform(-1.5, 1.5);
    v[i] = ad_test_uniform(-1, 1);
  }
  __ad_autodiff((void *)moment, x, g, __ad_const, n);
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(g[i], ad_fd_array(moment_fd, x, n, i), 1e-6);
    dot += g[i] * v[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)moment, x, v, __ad_const, n), dot, 1e-12);

  return ad_test_finish();
}
