// Nested derivatives whose inner call has each shape the API allows, each
// differentiated again in both modes against central differences:
//  - explicit __ad_out markers and a struct of two adjoints returned;
//  - an __ad_const marker on a scalar;
//  - a struct passed by value (its adjoint comes back through a shadow the
//    plugin allocates in the caller);
//  - a forward inner call on a function returning a struct through sret;
//  - an inner function with custom rules (the outer derivative
//    differentiates the rule's body);
//  - an inner function whose maximum is chosen by a select in a loop;
//  - an inner function that copies structs through bare pointers (the
//    memcpy's layout comes from the callers, and for the outer derivative
//    from the callers of the inner derivative);
//  - single precision, inner and outer;
//  - entry-point calls nested in one expression, __ad_autodiff(g,
//    __ad_fwddiff(f, ...)) and the other way round (not a derivative of a
//    derivative, but two calls where one passes the other's result).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include <string.h>
#include "ad_test.h"

#define TOL_AGREE 1e-10
#define TOL_FD 1e-6

struct d2 {
  double dx, dy;
};
struct d2 __ad_autodiff_d2(void *, ...);
void __ad_autodiff_void(void *, ...);

static double f2(double x, double y) { return x * x * y + sin(x * y); }

/* Inner: both adjoints in a struct, markers written out. */
static double grad_norm(double x, double y) {
  struct d2 g = __ad_autodiff_d2((void *)f2, __ad_out, x, __ad_out, y);
  return g.dx * g.dx + g.dy;
}

/* Inner: y constant. */
static double dfdx(double x, double y) {
  return __ad_autodiff((void *)f2, x, __ad_const, y);
}

struct P {
  double a, b, c;
};
struct P __ad_autodiff_P(void *, ...);
static double by_value(struct P p) { return p.a * p.b * sin(p.c) + p.a * p.a; }

/* Inner: the adjoint of a struct passed by value. */
static double struct_adjoint(double x, double y) {
  struct P p = {x, y, x * y};
  struct P d = __ad_autodiff_P((void *)by_value, p);
  return d.a + d.b * d.c;
}

static struct P make(double x, double y) {
  struct P r = {x * x, sin(x) * y, x * x * x};
  return r;
}
struct P __ad_fwddiff_P(void *, ...);

/* Inner: the tangent of a struct returned through sret. */
static double struct_tangent(double x, double y) {
  struct P t = __ad_fwddiff_P((void *)make, x, 1.0, y, 0.5);
  return t.a * t.b + t.c;
}

static double square(double x) { return x * x; }
static double square_fwd(double x, double dx) { return 2 * x * dx; }
static void square_rev(double x, double dy, double *dx) { *dx += 2 * x * dy; }
AD_FORWARD_RULE(square, square_fwd);
AD_REVERSE_RULE(square, square_rev);
static double uses_rule(double x, double y) { return square(sin(x)) * y; }

/* Inner: a function with custom rules, in both modes. */
static double rule_inner(double x, double y) {
  return __ad_autodiff((void *)uses_rule, x, __ad_const, y) +
         __ad_fwddiff((void *)uses_rule, x, 0.0, y, 1.0);
}

static double running_max(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] > m ? v[i] : m;
  return m * m * m + v[0] * m;
}

/* Inner: the maximum of (x, y, xy, x + y) read back after its loop. */
static double max_inner(double x, double y) {
  double v[4] = {x, y, x * y, x + y}, g[4] = {0};
  __ad_autodiff_void((void *)running_max, v, g, __ad_const, 4);
  return g[0] * x + g[1] * g[1] + g[2] + g[3] * y;
}

struct Rec {
  double a;
  int k;
  double b;
};
/* A struct assignment through bare pointers: a memcpy whose layout comes
 * from the callers, in the inner function and in its derivative. */
static void copy_rec(struct Rec *d, const struct Rec *s) { *d = *s; }
static double records(struct Rec *p, int n) {
  struct Rec t[4];
  for (int i = 0; i < n; i++)
    copy_rec(&t[i], &p[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i].a * t[i].b * t[i].k;
  return s * s;
}

/* Inner: the shadows of an array of structs. */
static double struct_copies(double x, double y) {
  struct Rec p[3] = {{x, 1, 2 * y}, {x * y, 2, 1}, {1, 3, x}}, dp[3];
  memset(dp, 0, sizeof dp);
  __ad_autodiff_void((void *)records, p, dp, __ad_const, 3);
  return dp[0].a + dp[1].a * x + dp[2].b * y;
}

/* Inner and outer in single precision (arguments promoted to double). */
static float float_cube_sin(float x) { return x * x * x * sinf(x); }
static float float_first(float x) {
  return __ad_autodiff((void *)float_cube_sin, x);
}
float __ad_autodiff_float(void *, ...);
float __ad_fwddiff_float(void *, ...);

static double cube(double x) { return x * x * x; }

/* d/dx and d/dy by central differences. */
static double fd_x(double (*h)(double, double), double x, double y) {
  double e = 1e-6;
  return (h(x + e, y) - h(x - e, y)) / (2 * e);
}
static double fd_y(double (*h)(double, double), double x, double y) {
  double e = 1e-6;
  return (h(x, y + e) - h(x, y - e)) / (2 * e);
}

#define CHECK_OUTER(h, x, y)                                                   \
  do {                                                                         \
    struct d2 r_ = __ad_autodiff_d2((void *)h, (x), (y));                      \
    CHECK_CLOSE(r_.dx, fd_x(h, (x), (y)), TOL_FD);                             \
    CHECK_CLOSE(r_.dy, fd_y(h, (x), (y)), TOL_FD);                             \
    CHECK_CLOSE(__ad_fwddiff((void *)h, (x), 1.0, (y), 0.0), r_.dx,            \
                TOL_AGREE);                                                    \
    CHECK_CLOSE(__ad_fwddiff((void *)h, (x), 0.0, (y), 1.0), r_.dy,            \
                TOL_AGREE);                                                    \
  } while (0)

int main(void) {
  double pts[3][2] = {{0.7, -1.3}, {-0.4, 0.9}, {1.2, 0.6}};
  for (int k = 0; k < 3; k++) {
    double x = pts[k][0], y = pts[k][1];
    CHECK_OUTER(grad_norm, x, y);
    CHECK_OUTER(dfdx, x, y);
    CHECK_OUTER(struct_adjoint, x, y);
    CHECK_OUTER(struct_tangent, x, y);
    CHECK_OUTER(rule_inner, x, y);
    CHECK_OUTER(max_inner, x, y);
    CHECK_OUTER(struct_copies, x, y);
  }
  /* (x^3 sin x)'' = 6x sin x + 6x^2 cos x - x^3 sin x, in float. */
  float xf = 0.7f;
  double wantf =
      6 * xf * sin(xf) + 6 * xf * xf * cos(xf) - xf * xf * xf * sin(xf);
  CHECK_CLOSE(__ad_autodiff_float((void *)float_first, xf), wantf, 1e-5);
  CHECK_CLOSE(__ad_fwddiff_float((void *)float_first, xf, 1.0f), wantf, 1e-5);
  /* cube'(cube'(x)) = 3 (3 x^2)^2, whichever call is lowered first. */
  double x = 0.8, want = 3 * (3 * x * x) * (3 * x * x);
  CHECK_CLOSE(__ad_autodiff((void *)cube, __ad_fwddiff((void *)cube, x, 1.0)),
              want, TOL_AGREE);
  CHECK_CLOSE(__ad_fwddiff((void *)cube, __ad_autodiff((void *)cube, x), 1.0),
              want, TOL_AGREE);
  return ad_test_finish();
}
