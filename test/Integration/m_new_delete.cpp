// Reverse mode (C++): new[]/delete[] buffers and new/delete'd objects holding active values.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 8

/* A C++ entry point without extern "C" and with a typed first parameter. */
double __ad_autodiff_cxx(double (*)(const double *, double, int), ...);

struct Poly { /* p(t) = c0 + c1 t + c2 t^2 */
  double c[3];
  Poly(double a, double b, double d) noexcept : c{a, b, d} {}
  double operator()(double t) const { return c[0] + t * (c[1] + t * c[2]); }
};

struct Vec2 {
  double x, y;
  double norm2() const { return x * x + y * y; }
};

/* t_i = x_i^2 in a new[] buffer; p = new Poly(a, 2a, x_0); returns sum_i p(t_i). */
static double poly_sum(const double *x, double a, int n) {
  double *t = new double[n];
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  Poly *p = new Poly(a, 2 * a, x[0]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (*p)(t[i]);
  delete p;
  delete[] t;
  return s;
}

/* An array of objects: v_i = (x_i, x_{i+1} x_i); returns sum_i |v_i|^2 sin(x_i). */
static double vec_sum(const double *x, int n) {
  Vec2 *v = new Vec2[n - 1];
  for (int i = 0; i + 1 < n; i++) {
    v[i].x = x[i];
    v[i].y = x[i + 1] * x[i];
  }
  double s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += v[i].norm2() * sin(x[i]);
  delete[] v;
  return s;
}

static double A = 0.7;
static double poly_x(double *x, int n) { return poly_sum(x, A, n); }
static double vec_x(double *x, int n) { return vec_sum(x, n); }

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-1.5, 1.5);

  double da = __ad_autodiff((void *)poly_sum, x, dx, A, N);
  double sum_t = 0, sum_t2 = 0;
  for (int i = 0; i < N; i++) {
    sum_t += x[i] * x[i];
    sum_t2 += x[i] * x[i] * x[i] * x[i];
  }
  CHECK_CLOSE(da, N + 2 * sum_t, 1e-10);
  for (int j = 0; j < N; j++) {
    double want = (2 * A + 2 * x[0] * x[j] * x[j]) * 2 * x[j] + (j == 0 ? sum_t2 : 0.0);
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(poly_x, x, N, j), 1e-5);
  }

  /* The same derivative through the mangled, typed entry point. */
  double dx2[N] = {0};
  double da2 = __ad_autodiff_cxx(poly_sum, __ad_dup, x, dx2, __ad_out, A, __ad_const, N);
  CHECK_CLOSE(da2, da, 1e-14);
  for (int j = 0; j < N; j++)
    CHECK_CLOSE(dx2[j], dx[j], 1e-14);

  for (int i = 0; i < N; i++)
    dx[i] = 0;
  __ad_autodiff((void *)vec_sum, x, dx, N);
  for (int j = 0; j < N; j++) {
    double want = 0;
    if (j + 1 < N) { /* term i = j: (x_j^2 + x_{j+1}^2 x_j^2) sin x_j */
      double q = 1 + x[j + 1] * x[j + 1];
      want += 2 * x[j] * q * sin(x[j]) + x[j] * x[j] * q * cos(x[j]);
    }
    if (j > 0) /* term i = j-1: d/dx_j of x_j^2 x_{j-1}^2 sin x_{j-1} */
      want += 2 * x[j] * x[j - 1] * x[j - 1] * sin(x[j - 1]);
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(vec_x, x, N, j), 1e-5);
  }

  return ad_test_finish();
}
