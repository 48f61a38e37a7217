// C99 complex arithmetic (complex.h) inside differentiated code, in double
// and float: products and quotients (clang calls __muldc3/__mulsc3 where the
// inline product is NaN, and __divdc3/__divsc3 for every quotient), cabs,
// carg, cexp, clog, csqrt, cpow, csin, ccos, ctan, csinh, ccosh, ctanh and
// conj. Each has a row with the Jacobian of its real components; the primal
// still calls the library. Checked: the C-R closed form f'(z) for
// holomorphic functions (d Re f / dx = Re f', d Re f / dy = -Im f'), central
// differences, and forward against reverse for all combined.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <complex.h>

struct d2 {
  double dx, dy;
};
struct d2 __ad_autodiff_d2(void *, ...);

/* Re and Im of one function of z = x + iy, as scalar functions. */
#define PARTS(name, expr)                                                      \
  double name##_re(double x, double y) {                                       \
    double complex z = x + I * y;                                              \
    return creal(expr);                                                        \
  }                                                                            \
  double name##_im(double x, double y) {                                       \
    double complex z = x + I * y;                                              \
    return cimag(expr);                                                        \
  }
PARTS(exp, cexp(z))
PARTS(log, clog(z))
PARTS(sqrt, csqrt(z))
PARTS(sin, csin(z))
PARTS(cos, ccos(z))
PARTS(tan, ctan(z))
PARTS(sinh, csinh(z))
PARTS(cosh, ccosh(z))
PARTS(tanh, ctanh(z))
PARTS(recip, 1.0 / z)
PARTS(cube, z * z * z)
/* Products call __muldc3 only where the inline product is NaN: call the
   helpers themselves, as that path would. */
double _Complex __muldc3(double, double, double, double);
double _Complex __divdc3(double, double, double, double);
float _Complex __mulsc3(float, float, float, float);
float _Complex __divsc3(float, float, float, float);
PARTS(mul, __muldc3(x, y, 0.3 * x, -1.7) * __muldc3(y, 0.5, x, y))
PARTS(div, __divdc3(1.5, -0.25, x, y) + __divdc3(x, y, 0.5, 2.0))
PARTS(mulf, __mulsc3(x, y, x, y) + __divsc3(x, y, 2.0f, -1.0f) +
                __divsc3(1.0f, 0.5f, x, y))

double absarg(double x, double y) {
  double complex z = x + I * y;
  return cabs(z) + 3 * carg(z);
}
/* Everything together, with a second complex argument w. */
double mix(double x, double y) {
  double complex z = x + I * y, w = y - 0.5 * I * x;
  double complex r = cexp(z) * w / z + cpow(z, w) + conj(z) * csqrt(z) +
                     clog(w) / (z * w);
  return creal(r) + 2 * cimag(r);
}
double mixf(double x, double y) {
  float complex z = (float)x + I * (float)y, w = (float)y - 0.5f * I * (float)x;
  float complex r = cexpf(z) * w / z + cpowf(z, w) + conjf(z) * csqrtf(z) +
                    csinf(z) * ccosf(w) / ctanhf(z) + cabsf(w) * cargf(z);
  return crealf(r) + 2 * cimagf(r);
}

static double fd(double (*f)(double, double), double x, double y, int wrt,
                 double h) {
  return wrt ? (f(x, y + h) - f(x, y - h)) / (2 * h)
             : (f(x + h, y) - f(x - h, y)) / (2 * h);
}

/* d(Re f)/dx = Re f', d(Re f)/dy = -Im f', d(Im f)/dx = Im f', d(Im f)/dy =
   Re f'. */
#define CHECK_HOLOMORPHIC(name, deriv)                                         \
  do {                                                                         \
    double complex d = (deriv);                                                \
    struct d2 re = __ad_autodiff_d2((void *)name##_re, x, y);                  \
    struct d2 im = __ad_autodiff_d2((void *)name##_im, x, y);                  \
    CHECK_CLOSE(re.dx, creal(d), 1e-12);                                       \
    CHECK_CLOSE(re.dy, -cimag(d), 1e-12);                                      \
    CHECK_CLOSE(im.dx, cimag(d), 1e-12);                                       \
    CHECK_CLOSE(im.dy, creal(d), 1e-12);                                       \
    CHECK_CLOSE(__ad_fwddiff((void *)name##_re, x, 1.0, y, 0.0), re.dx,        \
                1e-12);                                                        \
    CHECK_CLOSE(__ad_fwddiff((void *)name##_im, x, 0.0, y, 1.0), im.dy,        \
                1e-12);                                                        \
  } while (0)

int main(void) {
  const double pts[3][2] = {{0.7, 0.4}, {-1.3, 0.9}, {0.2, -2.1}};
  for (int k = 0; k < 3; k++) {
    double x = pts[k][0], y = pts[k][1];
    double complex z = x + I * y;
    CHECK_HOLOMORPHIC(exp, cexp(z));
    CHECK_HOLOMORPHIC(log, 1.0 / z);
    CHECK_HOLOMORPHIC(sqrt, 0.5 / csqrt(z));
    CHECK_HOLOMORPHIC(sin, ccos(z));
    CHECK_HOLOMORPHIC(cos, -csin(z));
    CHECK_HOLOMORPHIC(tan, 1.0 / (ccos(z) * ccos(z)));
    CHECK_HOLOMORPHIC(sinh, ccosh(z));
    CHECK_HOLOMORPHIC(cosh, csinh(z));
    CHECK_HOLOMORPHIC(tanh, 1.0 / (ccosh(z) * ccosh(z)));
    CHECK_HOLOMORPHIC(recip, -1.0 / (z * z));
    CHECK_HOLOMORPHIC(cube, 3.0 * z * z);
    /* (z u)(v z) with u, v depending on x and y too: finite differences. */
    CHECK_CLOSE(__ad_autodiff_d2((void *)mul_re, x, y).dx,
                fd(mul_re, x, y, 0, 1e-6), 1e-7);
    CHECK_CLOSE(__ad_autodiff_d2((void *)mul_im, x, y).dy,
                fd(mul_im, x, y, 1, 1e-6), 1e-7);
    CHECK_CLOSE(__ad_fwddiff((void *)mul_re, x, 0.0, y, 1.0),
                fd(mul_re, x, y, 1, 1e-6), 1e-7);
    CHECK_HOLOMORPHIC(div, -(1.5 - 0.25 * I) / (z * z) + 1.0 / (0.5 + 2.0 * I));
    /* z^2 + z / (2 - i) + (1 + 0.5i) / z, in float */
    double complex df = 2.0 * z + 1.0 / (2.0 - I) - (1.0 + 0.5 * I) / (z * z);
    CHECK_CLOSE(__ad_autodiff_d2((void *)mulf_re, x, y).dx, creal(df), 1e-5);
    CHECK_CLOSE(__ad_autodiff_d2((void *)mulf_re, x, y).dy, -cimag(df), 1e-5);
    CHECK_CLOSE(__ad_fwddiff((void *)mulf_im, x, 1.0, y, 0.0), cimag(df), 1e-5);
    CHECK_CLOSE(__ad_fwddiff((void *)mulf_im, x, 0.0, y, 1.0), creal(df), 1e-5);

    double r2 = x * x + y * y, r = sqrt(r2);
    struct d2 a = __ad_autodiff_d2((void *)absarg, x, y);
    CHECK_CLOSE(a.dx, x / r - 3 * y / r2, 1e-12);
    CHECK_CLOSE(a.dy, y / r + 3 * x / r2, 1e-12);

    struct d2 m = __ad_autodiff_d2((void *)mix, x, y);
    CHECK_CLOSE(m.dx, fd(mix, x, y, 0, 1e-6), 1e-6);
    CHECK_CLOSE(m.dy, fd(mix, x, y, 1, 1e-6), 1e-6);
    CHECK_CLOSE(__ad_fwddiff((void *)mix, x, 1.0, y, 0.0), m.dx, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)mix, x, 0.0, y, 1.0), m.dy, 1e-12);

    struct d2 mf = __ad_autodiff_d2((void *)mixf, x, y);
    CHECK_CLOSE(mf.dx, fd(mixf, x, y, 0, 1e-2), 2e-3);
    CHECK_CLOSE(mf.dy, fd(mixf, x, y, 1, 1e-2), 2e-3);
    CHECK_CLOSE(__ad_fwddiff((void *)mixf, x, 1.0, y, 0.0), mf.dx, 1e-5);
    CHECK_CLOSE(__ad_fwddiff((void *)mixf, x, 0.0, y, 1.0), mf.dy, 1e-5);
  }
  return ad_test_finish();
}
