// C++ constructors and destructors defined out of line, and function aliases.
// Clang emits the complete-object constructor C1 (destructor D1) of a class
// without virtual bases as an alias of the base-object one, C2 (D2), and at
// -O0 calls it through the alias; a call through an alias used to be refused
// as an indirect call. Checked in both modes, against closed forms, central
// finite differences and each other: a constructor that computes a member; a
// destructor that does the differentiated work (adds into a caller's
// variable); a three-level hierarchy whose constructors call their base's
// constructor (C2, directly) and whose virtual destructors chain; an
// explicitly instantiated template (a weak_odr alias); a class
// with a virtual base (C1 and C2 differ, no alias); and C functions defined
// by __attribute__((alias)), called inside differentiated code and passed to
// the entry points themselves.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <initializer_list>

/* The four lines: s.v = x^2, d/dx = 2x. */
struct S {
  double v;
  S(double x);
  ~S();
};
S::S(double x) : v(x * x) {}
S::~S() {}
static double square_via_ctor(double x) {
  S s(x);
  return s.v;
}

/* A destructor that does the work: each Acc adds sin(k x)^2 into *sink when
 * it dies. r = 0.5 + sin(x)^2 + sin(2x)^2. */
struct Acc {
  double *sink;
  double v;
  Acc(double *s, double x);
  ~Acc();
};
Acc::Acc(double *s, double x) : sink(s), v(std::sin(x)) {}
Acc::~Acc() { *sink += v * v; }
static double acc(double x) {
  double r = 0.5;
  {
    Acc a(&r, x);
    Acc b(&r, 2 * x);
  }
  return r;
}
static double acc_closed(double x) {
  return 2 * std::sin(x) * std::cos(x) + 4 * std::sin(2 * x) * std::cos(2 * x);
}

/* A hierarchy: Leaf's constructor calls Mid's base-object constructor, which
 * calls Base's; the destructors are virtual and chain the other way, Base's
 * adding b into a sink. value() = l + m + b with b = exp(x y),
 * m = b + y, l = m x. */
static double sink_total;
struct Base {
  double b;
  explicit Base(double x);
  virtual ~Base();
  virtual double value() const;
};
struct Mid : Base {
  double m;
  Mid(double x, double y);
  ~Mid() override;
  double value() const override;
};
struct Leaf final : Mid {
  double l;
  Leaf(double x, double y);
  ~Leaf() override;
  double value() const override;
};
Base::Base(double x) : b(std::exp(x)) {}
Base::~Base() {}
double Base::value() const { return b; }
Mid::Mid(double x, double y) : Base(x * y), m(b + y) {}
Mid::~Mid() {}
double Mid::value() const { return m + Base::value(); }
Leaf::Leaf(double x, double y) : Mid(x, y), l(m * x) {}
Leaf::~Leaf() {}
double Leaf::value() const { return l + Mid::value(); }
static double hierarchy(double x, double y) {
  Leaf leaf(x, y);
  return leaf.value();
}
/* value = (e + y) x + (e + y) + e, e = exp(x y). */
static void hierarchy_closed(double x, double y, double *dx, double *dy) {
  double e = std::exp(x * y);
  *dx = (y * e) * x + (e + y) + y * e + y * e;
  *dy = (x * e + 1) * x + (x * e + 1) + x * e;
}

/* A virtual base: the complete-object constructor constructs V itself, the
 * base-object one does not, so C1 is a function of its own (no alias). */
struct V {
  double v;
  V(double x);
};
struct A : virtual V {
  double a;
  A(double x);
};
struct B : virtual V {
  double bb;
  B(double x);
};
struct D : A, B {
  D(double x);
};
V::V(double x) : v(std::sin(x)) {}
A::A(double x) : V(x), a(v * x) {}
B::B(double x) : V(x), bb(v + x) {}
D::D(double x) : V(3 * x), A(x), B(x) {}
/* D's V is built by D: v = sin(3x); a = v x; bb = v + x. */
static double diamond(double x) {
  D d(x);
  return d.a * d.bb;
}
static double diamond_closed(double x) {
  double v = std::sin(3 * x), dv = 3 * std::cos(3 * x);
  double a = v * x, da = dv * x + v, bb = v + x, dbb = dv + 1;
  return da * bb + a * dbb;
}

/* An explicitly instantiated template: its C1 is a weak_odr alias (the
 * one-definition rule says any replacement is equivalent, so it is looked
 * through). w.v = x^3. */
template <class T> struct W {
  T v;
  W(T x);
};
template <class T> W<T>::W(T x) : v(x * x * x) {}
template struct W<double>;
static double cube_via_template(double x) {
  W<double> w(x);
  return w.v;
}

/* Aliases of ordinary functions. */
extern "C" double cube_impl(double x) { return x * x * std::sin(x) * x; }
extern "C" double cube(double x) __attribute__((alias("cube_impl")));
static double uses_alias(double x, double y) { return cube(x) * y + x; }

struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

static double fd_x(double (*f)(double, double), double x, double y) {
  double h = 1e-6;
  return (f(x + h, y) - f(x - h, y)) / (2 * h);
}
static double fd_y(double (*f)(double, double), double x, double y) {
  double h = 1e-6;
  return (f(x, y + h) - f(x, y - h)) / (2 * h);
}

int main() {
  for (double x : {-1.3, 0.4, 3.0}) {
    CHECK_CLOSE(__ad_autodiff((void *)square_via_ctor, x), 2 * x, 1e-14);
    CHECK_CLOSE(__ad_fwddiff((void *)square_via_ctor, x, 1.0), 2 * x, 1e-14);

    CHECK_CLOSE(__ad_autodiff((void *)acc, x), acc_closed(x), 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)acc, x, 1.0), acc_closed(x), 1e-13);
    CHECK_CLOSE(__ad_autodiff((void *)acc, x), ad_fd1(acc, x), 1e-6);

    CHECK_CLOSE(__ad_autodiff((void *)diamond, x), diamond_closed(x), 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)diamond, x, 1.0), diamond_closed(x),
                1e-13);
    CHECK_CLOSE(__ad_autodiff((void *)diamond, x), ad_fd1(diamond, x), 1e-6);

    CHECK_CLOSE(__ad_autodiff((void *)cube_via_template, x), 3 * x * x, 1e-14);
    CHECK_CLOSE(__ad_fwddiff((void *)cube_via_template, x, 1.0), 3 * x * x,
                1e-14);

    double xc = 0.5 * x;
    double c3 = 3 * xc * xc * std::sin(xc) + xc * xc * xc * std::cos(xc);
    CHECK_CLOSE(__ad_autodiff((void *)cube, xc), c3, 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)cube, xc, 1.0), c3, 1e-13);
  }
  for (double x : {-0.7, 0.3, 1.1})
    for (double y : {-0.4, 0.8}) {
      double wx, wy;
      hierarchy_closed(x, y, &wx, &wy);
      d2 g = __ad_autodiff_d2((void *)hierarchy, x, y);
      CHECK_CLOSE(g.dx, wx, 1e-13);
      CHECK_CLOSE(g.dy, wy, 1e-13);
      CHECK_CLOSE(g.dx, fd_x(hierarchy, x, y), 1e-6);
      CHECK_CLOSE(g.dy, fd_y(hierarchy, x, y), 1e-6);
      /* <J v, w> = <v, J^T w> with v = (0.3, -1.7). */
      CHECK_CLOSE(__ad_fwddiff((void *)hierarchy, x, 0.3, y, -1.7),
                  0.3 * g.dx - 1.7 * g.dy, 1e-13);

      g = __ad_autodiff_d2((void *)uses_alias, x, y);
      CHECK_CLOSE(g.dx, fd_x(uses_alias, x, y), 1e-6);
      CHECK_CLOSE(g.dy, cube_impl(x), 1e-14);
      CHECK_CLOSE(__ad_fwddiff((void *)uses_alias, x, 0.3, y, -1.7),
                  0.3 * g.dx - 1.7 * g.dy, 1e-13);
    }
  return ad_test_finish();
}
