// Printing inside the differentiated function: std::cout << "x=" << x with a
// differentiated x, std::cerr with manipulators (setprecision, std::endl),
// printf, and a std::ostringstream whose text is printed at the end. Printing
// carries no derivative (the values only flow out to the stream), so these
// calls are inactive rows (std::ostream's members, the std::operator<<
// templates, stream and locale internals), never "no derivative rule". The
// printed lines are checked too: the primal runs exactly once per call.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0 | FileCheck %s
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2 | FileCheck %s
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

double print(double x) {
  std::cout << "x=" << x << "\n";
  return x * x;
}
/* r = sin(x) y; returns r^2 */
double print2(double x, double y) {
  double r = std::sin(x) * y;
  std::cout << std::setprecision(3) << "r = " << r << ", y=" << y << ' ' << 3
            << std::endl;
  std::printf("printf %.2f\n", r);
  return r * r;
}
/* Text built in a string stream and printed once. */
double report(const double *x, int n) {
  std::ostringstream os;
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * (i + 1);
    os << s << ';';
  }
  std::cout << "partial sums " << os.str() << std::endl;
  return s;
}

struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  // CHECK: x=3
  CHECK_CLOSE(__ad_autodiff((void *)print, 3.0), 6.0, 1e-14);
  // CHECK-NEXT: x=2.5
  CHECK_CLOSE(__ad_fwddiff((void *)print, 2.5, 1.0), 5.0, 1e-14);
  double x = 0.8, y = 2.0, r = std::sin(x) * y;
  // CHECK-NEXT: r = 1.43, y=2 3
  // CHECK-NEXT: printf 1.43
  d2 d = __ad_autodiff_d2((void *)print2, x, y);
  CHECK_CLOSE(d.dx, 2 * r * std::cos(x) * y, 1e-14);
  CHECK_CLOSE(d.dy, 2 * r * std::sin(x), 1e-14);
  // CHECK-NEXT: r = 1.43, y=2 3
  // CHECK-NEXT: printf 1.43
  CHECK_CLOSE(__ad_fwddiff((void *)print2, x, 0.0, y, 1.0), d.dy, 1e-14);
  double v[3] = {1.0, 0.5, 2.0}, dv[3] = {0, 0, 0};
  std::cout << std::setprecision(6);
  // CHECK-NEXT: partial sums 1;1.5;13.5;
  __ad_autodiff((void *)report, v, dv, 3);
  for (int i = 0; i < 3; i++)
    CHECK_CLOSE(dv[i], 2 * v[i] * (i + 1), 1e-14);
  // CHECK-NOT: {{.}}
  return ad_test_finish();
}
