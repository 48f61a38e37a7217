// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks nested loops: rectangular, triangular, inner break, and a local 2-D array.
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

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

/* sum_{i<n} sum_{j<m} x^i y^j */
static double grid(double x, double y, int n, int m) {
  double s = 0.0, px = 1.0;
  for (int i = 0; i < n; i++) {
    double py = 1.0;
    for (int j = 0; j < m; j++) {
      s += px * py;
      py *= y;
    }
    px *= x;
  }
  return s;
}
/* Triangular: y * sum_{i<n} x^(i+1), the power built by an inner loop. */
static double tri(double x, double y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = 1.0;
    for (int j = 0; j <= i; j++)
      t *= x;
    s += t * y;
  }
  return s;
}
/* Inner loop halves t until it drops below y: y only steers, so ds/dy = 0 and ds/dx = s/x. */
static double halve(double x, double y) {
  double s = 0.0;
  for (int i = 0; i < 6; i++) {
    double t = x * (i + 1);
    for (int j = 0; j < 10; j++) {
      t *= 0.5;
      if (t < y)
        break;
    }
    s += t;
  }
  return s;
}
/* A[i][j] = x^i y^j; sum_i A[i][i] * A[i][3-i] = y^3 sum_{i<4} x^(2i). */
static double mat(double x, double y) {
  double A[4][4], s = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      A[i][j] = pow(x, i) * pow(y, j);
  for (int i = 0; i < 4; i++)
    s += A[i][i] * A[i][3 - i];
  return s;
}
static double grid_a(double *p, int n) { (void)n; return grid(p[0], p[1], 5, 3); }
static double tri_a(double *p, int n) { return tri(p[0], p[1], n); }
static double halve_a(double *p, int n) { (void)n; return halve(p[0], p[1]); }
static double mat_a(double *p, int n) { (void)n; return mat(p[0], p[1]); }

int main(void) {
  for (int k = 0; k < 6; k++) {
    double x = ad_test_uniform(0.3, 1.6), y = ad_test_uniform(0.3, 1.6), p[2] = {x, y};
    double gx = 0, gy = 0, Gx = 0, Gy = 0, tx = 0, ty = 0, ax = 0, ay = 0;
    for (int i = 0; i < 5; i++) { Gx += pow(x, i); gx += i * pow(x, i - 1); }
    for (int j = 0; j < 3; j++) { Gy += pow(y, j); gy += j * pow(y, j - 1); }
    for (int i = 0; i < 7; i++) { tx += (i + 1) * pow(x, i) * y; ty += pow(x, i + 1); }
    for (int i = 0; i < 4; i++) { ax += 2 * i * pow(x, 2 * i - 1); ay += pow(x, 2 * i); }

    struct d2 g = __ad_autodiff_d2((void *)grid, x, y, 5, 3);
    CHECK_DERIV(g.dx, gx * Gy, ad_fd_array(grid_a, p, 2, 0));
    CHECK_DERIV(g.dy, Gx * gy, ad_fd_array(grid_a, p, 2, 1));
    CHECK_CLOSE(__ad_fwddiff((void *)grid, x, 1.0, y, 1.0, 5, 3), g.dx + g.dy, TOL_EXACT);

    struct d2 t = __ad_autodiff_d2((void *)tri, x, y, 7);
    CHECK_DERIV(t.dx, tx, ad_fd_array(tri_a, p, 7, 0));
    CHECK_DERIV(t.dy, ty, ad_fd_array(tri_a, p, 7, 1));
    CHECK_DERIV(__ad_fwddiff((void *)tri, x, 0.0, y, 1.0, 7), ty, ad_fd_array(tri_a, p, 7, 1));

    double hx = 4.0 * x, hy = 0.37 + 0.1 * k, q[2] = {hx, hy};
    struct d2 h = __ad_autodiff_d2((void *)halve, hx, hy);
    CHECK_DERIV(h.dx, halve(hx, hy) / hx, ad_fd_array(halve_a, q, 2, 0));
    CHECK_DERIV(h.dy, 0.0, ad_fd_array(halve_a, q, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)halve, hx, 1.0, hy, 1.0), halve(hx, hy) / hx,
                ad_fd_array(halve_a, q, 2, 0));

    struct d2 a = __ad_autodiff_d2((void *)mat, x, y);
    CHECK_DERIV(a.dx, y * y * y * ax, ad_fd_array(mat_a, p, 2, 0));
    CHECK_DERIV(a.dy, 3 * y * y * ay, ad_fd_array(mat_a, p, 2, 1));
    CHECK_DERIV(__ad_fwddiff((void *)mat, x, 1.0, y, 0.0), y * y * y * ax,
                ad_fd_array(mat_a, p, 2, 0));
  }
  return ad_test_finish();
}
