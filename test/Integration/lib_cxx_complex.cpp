// std::complex<double> and std::complex<float> in the differentiated
// function: construction from real inputs, +, -, * (clang's inline product
// with __muldc3 where it is NaN), / (__divdc3), abs (cabs), arg (carg), exp,
// log, sqrt, pow (complex and real exponents), conj, norm, polar, real()
// and imag(). At -O0 libstdc++'s operators are functions of their own; at
// -O2 they are inlined down to the C99 functions, which have rows. Checked
// against closed forms (holomorphic functions through f'(z)), central
// differences and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <complex>

using cd = std::complex<double>;
struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);
struct f2 {
  float dx, dy;
};
extern "C" f2 __ad_autodiff_f2(void *, ...);

/* Re and Im of f(z), z = x + iy, as real functions of (x, y). */
#define PARTS(name, expr)                                                      \
  double name##_re(double x, double y) {                                       \
    cd z(x, y);                                                                \
    return std::real(expr);                                                    \
  }                                                                            \
  double name##_im(double x, double y) {                                       \
    cd z(x, y);                                                                \
    return std::imag(expr);                                                    \
  }
PARTS(exp, std::exp(z))
PARTS(log, std::log(z))
PARTS(sqrt, std::sqrt(z))
PARTS(powc, std::pow(z, cd(0.5, -1.5)))
PARTS(powr, std::pow(z, 2.5))
PARTS(quot, (z * z + 1.0) / (z - cd(0.25, 3.0)))

double absarg(double x, double y) {
  cd z(x, y);
  return std::abs(z) + 3 * std::arg(z) + std::norm(z);
}
/* A mix of everything, with a second complex number w(x, y). */
double mix(double x, double y) {
  cd z(x, y), w(y, -0.5 * x);
  cd r = std::exp(z) * w / z + std::pow(z, w) + std::conj(z) * std::sqrt(z) +
         std::log(w) / (z * w) + std::polar(std::abs(w), std::arg(z));
  return r.real() + 2 * r.imag();
}
float mixf(float x, float y) {
  std::complex<float> z(x, y), w(y, -0.5f * x);
  std::complex<float> r = std::exp(z) * w / z + std::conj(z) * std::sqrt(z);
  return r.real() + 2 * r.imag() + std::abs(w);
}

static double fd(double (*f)(double, double), double x, double y, int wrt) {
  double h = 1e-6;
  return wrt ? (f(x, y + h) - f(x, y - h)) / (2 * h)
             : (f(x + h, y) - f(x - h, y)) / (2 * h);
}

/* d Re f/dx = Re f', d Re f/dy = -Im f', d Im f/dx = Im f', d Im f/dy = Re f' */
#define CHECK_HOLOMORPHIC(name, deriv)                                         \
  do {                                                                         \
    cd d = (deriv);                                                            \
    d2 re = __ad_autodiff_d2((void *)name##_re, x, y);                         \
    d2 im = __ad_autodiff_d2((void *)name##_im, x, y);                         \
    CHECK_CLOSE(re.dx, d.real(), 1e-12);                                       \
    CHECK_CLOSE(re.dy, -d.imag(), 1e-12);                                      \
    CHECK_CLOSE(im.dx, d.imag(), 1e-12);                                       \
    CHECK_CLOSE(im.dy, d.real(), 1e-12);                                       \
    CHECK_CLOSE(__ad_fwddiff((void *)name##_re, x, 0.0, y, 1.0), re.dy,        \
                1e-12);                                                        \
    CHECK_CLOSE(__ad_fwddiff((void *)name##_im, x, 1.0, y, 0.0), im.dx,        \
                1e-12);                                                        \
  } while (0)

int main() {
  const double pts[3][2] = {{0.7, 0.4}, {-1.3, 0.9}, {0.2, -2.1}};
  for (auto &p : pts) {
    double x = p[0], y = p[1];
    cd z(x, y), a(0.5, -1.5), b(0.25, 3.0);
    CHECK_HOLOMORPHIC(exp, std::exp(z));
    CHECK_HOLOMORPHIC(log, 1.0 / z);
    CHECK_HOLOMORPHIC(sqrt, 0.5 / std::sqrt(z));
    CHECK_HOLOMORPHIC(powc, a * std::pow(z, a) / z);
    CHECK_HOLOMORPHIC(powr, 2.5 * std::pow(z, 2.5) / z);
    CHECK_HOLOMORPHIC(quot, (2.0 * z * (z - b) - (z * z + 1.0)) /
                                ((z - b) * (z - b)));
    double r2 = x * x + y * y, r = std::sqrt(r2);
    d2 g = __ad_autodiff_d2((void *)absarg, x, y);
    CHECK_CLOSE(g.dx, x / r - 3 * y / r2 + 2 * x, 1e-12);
    CHECK_CLOSE(g.dy, y / r + 3 * x / r2 + 2 * y, 1e-12);
    d2 m = __ad_autodiff_d2((void *)mix, x, y);
    CHECK_CLOSE(m.dx, fd(mix, x, y, 0), 1e-6);
    CHECK_CLOSE(m.dy, fd(mix, x, y, 1), 1e-6);
    CHECK_CLOSE(__ad_fwddiff((void *)mix, x, 1.0, y, 0.0), m.dx, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)mix, x, 0.0, y, 1.0), m.dy, 1e-12);
    f2 mf = __ad_autodiff_f2((void *)mixf, (float)x, (float)y);
    auto mixfd = [](double u, double v) { return (double)mixf(u, v); };
    double h = 1e-2; /* float: a wide step, a loose tolerance */
    CHECK_CLOSE(mf.dx, (mixfd(x + h, y) - mixfd(x - h, y)) / (2 * h), 1e-2);
    CHECK_CLOSE(mf.dy, (mixfd(x, y + h) - mixfd(x, y - h)) / (2 * h), 1e-2);
    CHECK_CLOSE(__ad_fwddiff((void *)mixf, (float)x, 1.0f, (float)y, 0.0f),
                mf.dx, 1e-5);
    CHECK_CLOSE(__ad_fwddiff((void *)mixf, (float)x, 0.0f, (float)y, 1.0f),
                mf.dy, 1e-5);
  }
  return ad_test_finish();
}
