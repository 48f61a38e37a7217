// Works (keep it working): C++ code -- a class with a constructor and const
// member function called from the differentiated free function, a struct with
// a method, operator overloading on a small vector type, function templates
// instantiated for float and double, lambdas (capturing and not) passed to a
// template, std::array + std::sort + std::max, reference parameters.
// -O0 uses -fno-exceptions: with exceptions, -O0 hits the invoke/cleanup bug
// of r_cpp_cleanup_O0.cpp.
// RUN: %clangxx_ad -O0 -fno-exceptions %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <algorithm>
#include <array>
#include <cmath>

class Poly {
public:
  Poly(const double *c, int n) : c_(c), n_(n) {}
  double eval(double x) const {
    double r = 0;
    for (int i = n_ - 1; i >= 0; i--) r = r * x + c_[i];
    return r;
  }
private:
  const double *c_;
  int n_;
};
struct Spring {
  double k, L;
  double energy(double x) const { double d = x - L; return 0.5 * k * d * d; }
};
double fpoly(double x) {
  double c[3] = {1.0, 2.0, 3.0};
  Poly p(c, 3);
  return p.eval(x) * std::sin(x);
}
double fspring(double x, double k) { Spring s{k, 1.5}; return s.energy(x); }

template <typename T> T sq(T v) { return v * v; }
template <typename T> T model(T x, T y) { return sq(x) * std::exp(y) + std::sqrt(sq(y) + T(1)); }
template <typename T> T tsum(const T *a, int n) { T s = 0; for (int i = 0; i < n; i++) s += sq(a[i] - T(1)); return s; }

template <typename F> double apply(F f, double x) { return f(x) * f(2 * x); }
double withlam(double x, double k) {
  auto ksq = [k](double t) { return k * t * t; };
  return apply(ksq, x) + apply([](double t) { return std::sin(t); }, x);
}
double lam(double x, double y) {
  auto f = [&](double t) { return std::sin(t * y) + x; };
  auto g = [](double t) { return t * t; };
  double s = 0;
  for (int i = 0; i < 4; i++) s += f(x + i) * g(y);
  return s;
}

struct Vec {
  double x, y, z;
  Vec operator+(const Vec &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec operator*(double s) const { return {x * s, y * s, z * s}; }
  double dot(const Vec &o) const { return x * o.x + y * o.y + z * o.z; }
};
double fvec(const double *p) {
  Vec a{p[0], p[1], p[2]}, b{p[2], p[0], p[1]};
  Vec c = (a + b) * p[0];
  return c.dot(a);
}
double farr(const double *p) {
  std::array<double, 4> a{};
  for (int i = 0; i < 4; i++) a[i] = p[i] * p[i];
  std::sort(a.begin(), a.end());
  return a[3] - a[0] + std::max(p[0], p[1]);
}
double fref(double &x, const double &y) { x = x * y; return x + y; }
static double fvec_fd(double *p, int) { return fvec(p); }
static double farr_fd(double *p, int) { return farr(p); }

struct d2 { double a, b; };
extern "C" d2 __ad_autodiff_d2(void *, ...);
struct f2 { float a, b; };
f2 __ad_autodiff_f2(void *, ...); // C++ linkage: found by its demangled name
void __ad_autodiff_v(void *, ...);

int main() {
  for (double x = -1.2; x < 2; x += 0.45) {
    double p = 1 + 2 * x + 3 * x * x, dp = 2 + 6 * x;
    CHECK_CLOSE(__ad_autodiff((void *)fpoly, x), dp * std::sin(x) + p * std::cos(x), 1e-10);
    CHECK_CLOSE(__ad_fwddiff((void *)fpoly, x, 1.0), dp * std::sin(x) + p * std::cos(x), 1e-10);
    d2 s = __ad_autodiff_d2((void *)fspring, x, 3.0);
    CHECK_CLOSE(s.a, 3.0 * (x - 1.5), 1e-12);
    CHECK_CLOSE(s.b, 0.5 * (x - 1.5) * (x - 1.5), 1e-12);
    double y = 0.3 * x + 0.1;
    d2 m = __ad_autodiff_d2((void *)model<double>, x, y);
    CHECK_CLOSE(m.a, 2 * x * std::exp(y), 1e-12);
    CHECK_CLOSE(m.b, x * x * std::exp(y) + y / std::sqrt(y * y + 1), 1e-12);
    float xf = (float)x, yf = (float)y;
    f2 mf = __ad_autodiff_f2((void *)model<float>, xf, yf);
    CHECK_CLOSE(mf.a, 2 * xf * std::exp(yf), 1e-5);
    CHECK_CLOSE(mf.b, xf * xf * std::exp(yf) + yf / std::sqrt(yf * yf + 1), 1e-5);
    d2 l = __ad_autodiff_d2((void *)lam, x, y);
    double wa = 0, wb = 0;
    for (int i = 0; i < 4; i++) {
      double t = x + i;
      wa += (std::cos(t * y) * y + 1) * y * y;
      wb += (std::cos(t * y) * t) * y * y + (std::sin(t * y) + x) * 2 * y;
    }
    CHECK_CLOSE(l.a, wa, 1e-10);
    CHECK_CLOSE(l.b, wb, 1e-10);
    double k = 1.3;
    /* k^2 x^2 (2x)^2 = 4 k^2 x^4 ; sin(x) sin(2x) */
    double wl = 16 * k * k * x * x * x + std::cos(x) * std::sin(2 * x) + 2 * std::sin(x) * std::cos(2 * x);
    CHECK_CLOSE(__ad_autodiff((void *)withlam, x, __ad_const, k), wl, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)withlam, x, 1.0, k, 0.0), wl, 1e-12);
  }
  float af[6] = {0, 1, 2, 3, 4, 5}, daf[6] = {};
  __ad_autodiff_v((void *)tsum<float>, af, daf, 6);
  for (int i = 0; i < 6; i++) CHECK_CLOSE(daf[i], 2 * (af[i] - 1), 1e-6);
  double ad[6] = {0, 1, 2, 3, 4, 5}, dad[6] = {};
  __ad_autodiff((void *)tsum<double>, ad, dad, 6);
  for (int i = 0; i < 6; i++) CHECK_CLOSE(dad[i], 2 * (ad[i] - 1), 1e-12);

  double q[4] = {0.3, -1.1, 0.8, 1.7}, dq[4] = {};
  __ad_autodiff((void *)fvec, q, dq);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dq[i], ad_fd_array(fvec_fd, q, 3, i), 1e-6);
  double dr[4] = {};
  __ad_autodiff((void *)farr, q, dr);
  for (int i = 0; i < 4; i++) CHECK_CLOSE(dr[i], ad_fd_array(farr_fd, q, 4, i), 1e-6);
  double x = 1.5, dx = 2.0, y = 0.5, dy = 0.0;
  __ad_autodiff((void *)fref, &x, &dx, &y, &dy);
  /* outputs: return x*y + y (seed 1) and x_new = x*y (seed 2) */
  CHECK_CLOSE(dx, 3 * 0.5, 1e-12);
  CHECK_CLOSE(dy, 3 * 1.5 + 1, 1e-12);
  CHECK_CLOSE(x, 0.75, 0);
  return ad_test_finish();
}
