// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks loops whose trip count n is an int argument (including n = 0 and n = 1).
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

/* sum_{i<n} x^i */
static double geom(double x, int n) {
  double s = 0.0, p = 1.0;
  for (int i = 0; i < n; i++) {
    s += p;
    p *= x;
  }
  return s;
}
/* y <- y*c + x, n times from y = x: y = x (1 + c + ... + c^n) */
static double affine(double x, double c, int n) {
  double y = x;
  for (int i = 0; i < n; i++)
    y = y * c + x;
  return y;
}
/* sum_{i<n} (i+1) * v[i]^2 over a duplicated array, trip count unsigned long. */
static double wsq(const double *v, unsigned long n) {
  double s = 0.0;
  for (unsigned long i = 0; i < n; i++)
    s += (double)(i + 1) * v[i] * v[i];
  return s;
}

static double wsq_arr(double *v, int n) { return wsq(v, (unsigned long)n); }

static int cur_n;
static double cur_c;
static double geom_n(double x) { return geom(x, cur_n); }
static double affine_x(double x) { return affine(x, cur_c, cur_n); }
static double affine_c(double c) { return affine(1.7, c, cur_n); }

int main(void) {
  static const int ns[] = {0, 1, 2, 5, 13, 40};
  for (int in = 0; in < 6; in++) {
    int n = cur_n = ns[in];
    for (int j = 0; j < 5; j++) {
      double x = ad_test_uniform(0.2, 1.05);
      /* Closed forms as explicit sums: (x^n - 1) / (x - 1) cancels badly near x = 1. */
      double eg = 0.0, ex = 0.0, ec = 0.0;
      for (int i = 1; i < n; i++)
        eg += i * pow(x, i - 1);
      CHECK_DERIV(__ad_autodiff((void *)geom, x, n), eg, ad_fd1(geom_n, x));
      CHECK_DERIV(__ad_fwddiff((void *)geom, x, 1.0, __ad_const, n), eg, ad_fd1(geom_n, x));

      /* affine = x * sum_{i<=n} c^i */
      double c = cur_c = ad_test_uniform(0.3, 1.2);
      for (int i = 0; i <= n; i++) {
        ex += pow(c, i);
        ec += i == 0 ? 0.0 : 1.7 * i * pow(c, i - 1);
      }
      CHECK_DERIV(__ad_autodiff((void *)affine, x, __ad_const, c, n), ex, ad_fd1(affine_x, x));
      CHECK_DERIV(__ad_autodiff((void *)affine, __ad_const, 1.7, c, n), ec, ad_fd1(affine_c, c));
      CHECK_DERIV(__ad_fwddiff((void *)affine, 1.7, 0.0, c, 1.0, n), ec, ad_fd1(affine_c, c));
    }
    /* Gradient of wsq into a shadow array that starts at 1: adjoints are added. */
    double v[40], dv[41];
    for (int i = 0; i < 40; i++) {
      v[i] = ad_test_uniform(-1.0, 1.0);
      dv[i] = 1.0;
    }
    dv[40] = 5.0; /* one past the range: must stay untouched */
    __ad_autodiff((void *)wsq, v, dv, (unsigned long)n);
    for (int i = 0; i < 40; i++) {
      double e = i < n ? 2.0 * (i + 1) * v[i] : 0.0;
      CHECK_DERIV(dv[i] - 1.0, e, ad_fd_array(wsq_arr, v, n, i));
    }
    CHECK_TRUE(dv[40] == 5.0);
  }
  return ad_test_finish();
}
