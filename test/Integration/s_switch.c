// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks switch on an integer argument: fallthrough, default, and a constant lookup table.
#include <ad.h>
#include "ad_test.h"

#define TOL_EXACT 1e-10
#define TOL_FD 1e-5
/* AD derivative vs the closed form and vs a central finite difference. */
#define CHECK_DERIV(ad, exact, fd)                                             \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), TOL_EXACT);                                     \
    CHECK_CLOSE((ad), (fd), TOL_FD);                                           \
  } while (0)

static double sw(double x, int k) {
  double r = x;
  switch (k) {
  case 0: r = x * x; break;
  case 1: r = exp(x); break;
  case 2: r = x * x * x; __attribute__((fallthrough));
  case 3: r += 2.0 * x; break;
  case 7: r = 1.0 / x; break;
  default: r = -x; break;
  }
  return r * x;
}
/* Only constants differ between cases: at -O2 this becomes a load from a table. */
static double table(double x, int k) {
  double c;
  switch (k) {
  case 0: c = 1.5; break;
  case 1: c = -2.0; break;
  case 2: c = 0.25; break;
  case 3: c = 4.0; break;
  case 4: c = -0.5; break;
  default: c = 0.0; break;
  }
  return c * x * x + x;
}

static int cur_k;
static double sw_k(double x) { return sw(x, cur_k); }
static double table_k(double x) { return table(x, cur_k); }

int main(void) {
  static const int ks[] = {0, 1, 2, 3, 4, 5, 7, -1};
  static const double cs[] = {1.5, -2.0, 0.25, 4.0, -0.5, 0.0, 0.0, 0.0};
  for (int ik = 0; ik < 8; ik++) {
    int k = cur_k = ks[ik];
    for (int j = 0; j < 5; j++) {
      double x = ad_test_uniform(-2.0, 2.0);
      double e;
      switch (k) {
      case 0: e = 3 * x * x; break;
      case 1: e = (1 + x) * exp(x); break;
      case 2: e = 4 * x * x * x + 4 * x; break; /* x^4 + 2x^2 */
      case 3: e = 6 * x; break;                 /* 3x^2 */
      case 7: e = 0; break;                     /* 1 */
      default: e = -2 * x; break;
      }
      CHECK_DERIV(__ad_autodiff((void *)sw, x, k), e, ad_fd1(sw_k, x));
      CHECK_DERIV(__ad_autodiff((void *)sw, x, __ad_const, k), e, ad_fd1(sw_k, x));
      CHECK_DERIV(__ad_fwddiff((void *)sw, x, 1.0, k), e, ad_fd1(sw_k, x));
      CHECK_CLOSE(__ad_fwddiff((void *)sw, x, -0.75, __ad_const, k), -0.75 * e, TOL_EXACT);

      double et = 2.0 * cs[ik] * x + 1.0;
      CHECK_DERIV(__ad_autodiff((void *)table, x, k), et, ad_fd1(table_k, x));
      CHECK_DERIV(__ad_fwddiff((void *)table, x, 1.0, k), et, ad_fd1(table_k, x));
    }
  }
  return ad_test_finish();
}
