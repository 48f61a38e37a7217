// frexp, ldexp and scalbn inside differentiated code. frexp(x, &e) returns
// the mantissa m = x * 2^-e in [0.5, 1) and writes the exponent e through the
// pointer: m's partial is 2^-e (recomputed from x, not read back from the
// int, which the program may reuse), e is an integer and carries none.
// ldexp(m, n) and scalbn(m, n) scale by 2^n. The exponent is also written
// into a field of a differentiated struct. Checked against the closed form
// (d/dx of m(x)^2 e(x) is 2 m 2^-e e), central differences away from powers
// of two (where m jumps), and forward against reverse, in double and float.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

double mant(double x) {
  int e;
  double m = frexp(x, &e);
  return m * m * e;
}
float mantf(float x) {
  int e;
  float m = frexpf(x, &e);
  return m * m * (float)e;
}
/* ldexp(m^2, e) + scalbn(m, 2e) = x^2 2^-e + x 2^e: both scale exactly. */
double rescale(double x) {
  int e;
  double m = frexp(x, &e);
  return ldexp(m * m, e) + scalbn(m, 2 * e);
}
struct split {
  double m;
  int e;
};
double viastruct(double *x) {
  struct split s[2];
  for (int i = 0; i < 2; i++)
    s[i].m = frexp(x[i], &s[i].e);
  return s[0].m * s[1].e + s[1].m * s[0].m * s[0].e;
}
static double viastruct_fd(double *x, int n) { return viastruct(x); }

int main(void) {
  const double xs[] = {5.0, -3.3, 0.7, 1e-3, 1234.5, 8.0, 0.5};
  for (int k = 0; k < 7; k++) {
    double x = xs[k];
    int e;
    double m = frexp(x, &e), scale = ldexp(1.0, -e);
    double want = 2 * m * scale * e;
    CHECK_CLOSE(__ad_autodiff((void *)mant, x), want, 1e-14);
    CHECK_CLOSE(__ad_fwddiff((void *)mant, x, 1.0), want, 1e-14);
    if (k < 5) /* not at a power of two, where m jumps */
      CHECK_CLOSE(__ad_autodiff((void *)mant, x), ad_fd1(mant, x), 1e-6);
    /* x^2 2^-e + x 2^e, e held fixed: 2 x 2^-e + 2^e */
    double want2 = 2 * x * scale + ldexp(1.0, e);
    CHECK_CLOSE(__ad_autodiff((void *)rescale, x), want2, 1e-14);
    CHECK_CLOSE(__ad_fwddiff((void *)rescale, x, 1.0), want2, 1e-14);
    float xf = (float)x;
    int ef;
    float mf = frexpf(xf, &ef);
    CHECK_CLOSE(__ad_autodiff((void *)mantf, xf), 2 * mf * ldexpf(1.0f, -ef) * ef,
                1e-6);
    CHECK_CLOSE(__ad_fwddiff((void *)mantf, xf, 1.0f),
                2 * mf * ldexpf(1.0f, -ef) * ef, 1e-6);
  }
  double x[2] = {3.0, 0.3}, dx[2] = {0, 0}, tx[2];
  __ad_autodiff((void *)viastruct, x, dx);
  for (int i = 0; i < 2; i++) {
    CHECK_CLOSE(dx[i], ad_fd_array(viastruct_fd, x, 2, i), 1e-6);
    tx[0] = i == 0;
    tx[1] = i == 1;
    CHECK_CLOSE(__ad_fwddiff((void *)viastruct, x, tx), dx[i], 1e-14);
  }
  return ad_test_finish();
}
