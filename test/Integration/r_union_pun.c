// Regression: a double moved through the integer member of a union
// (union { double d; long l; }). At -O0 the copy is `load i64` / `store i64`
// and the plugin dropped the derivative along that path: reverse mode lost it
// (copyl: got x instead of 2x), and for the classic bit-mask fabs
// (u.l &= 0x7fff...) reverse returned 1 and forward 0 whatever the sign --
// silently wrong, and the two modes disagreed. -O1 and up fold the union away.
// Either the right derivative or a compile-time error is acceptable: the plain
// copy must differentiate; the mask is an error (test/Diagnostics/fp_bits_mask.c).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <string.h>

typedef union {
  double d;
  long l;
} DL;

/* v = x, moved through the integer member: returns x * x */
static double copyl(double x) {
  DL u, v;
  u.d = x;
  v.l = u.l;
  return v.d * x;
}
/* an array summed through union temporaries: sum a_i^2 */
static double sumsq(const double *a, int n) {
  DL s;
  s.d = 0;
  for (int i = 0; i < n; i++) {
    long bits;
    memcpy(&bits, &a[i], sizeof bits); /* the well-defined way to read the bits */
    DL t;
    t.l = bits;
    s.d += t.d * t.d;
  }
  return s.d;
}

static double copyl_fd(double x) { return copyl(x); }
static double sumsq_fd(double *a, int n) { return sumsq(a, n); }

int main(void) {
  double xs[4] = {-1.7, -0.3, 0.4, 2.2};
  for (int k = 0; k < 4; k++) {
    double x = xs[k];
    CHECK_CLOSE(__ad_autodiff((void *)copyl, x), 2 * x, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)copyl, x, 1.0), 2 * x, 1e-12);
    CHECK_CLOSE(2 * x, ad_fd1(copyl_fd, x), 1e-6);
  }
  double a[4] = {1, -2, 3, 0.5}, da[4] = {0};
  __ad_autodiff((void *)sumsq, a, da, 4);
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(da[i], 2 * a[i], 1e-12);
    CHECK_CLOSE(da[i], ad_fd_array(sumsq_fd, a, 4, i), 1e-6);
  }
  return ad_test_finish();
}
