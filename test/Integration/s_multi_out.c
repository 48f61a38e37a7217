// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks several adjoints returned as structs (sret too), typed and void prototypes.
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
#define CHECK_DERIVF(ad, exact, fd)                                            \
  do {                                                                         \
    CHECK_CLOSE((ad), (exact), 1e-5);                                          \
    CHECK_CLOSE((ad), (fd), 1e-5);                                             \
  } while (0)

struct d2 { double dx, dy; };
struct d3 { double dx, dy, dz; };  /* 24 bytes: returned through a hidden sret pointer */
struct f2 { float dx, dy; };       /* returned packed in one register */
struct fd { float da; double db; };
struct d2 __ad_autodiff_d2(void *, ...);
struct d3 __ad_autodiff_d3(void *, ...);
struct f2 __ad_autodiff_f2(void *, ...);
struct fd __ad_autodiff_fd(void *, ...);
double __ad_autodiff_t(double (*)(double, double), ...);
void __ad_autodiff_v(void *, ...);
void __ad_fwddiff_v(void *, ...);

static double g2(double x, double y) { return x * x * y + y / x; }
static double g3(double x, double y, double z) { return x * y * z + x / z; }
static float gf(float x, float y) { return x * y * y - x / y; }
static double gm(float a, double b) { return a * b * b + sin(a); }
static void vf(const double *in, double *out) {
  out[0] = in[0] * in[1];
  out[1] = sin(in[0]) + in[1] * in[1];
}
static double g2_a(double *p, int n) { (void)n; return g2(p[0], p[1]); }
static double g3_a(double *p, int n) { (void)n; return g3(p[0], p[1], p[2]); }
static double gf_a(double *p, int n) { (void)n; return p[0] * p[1] * p[1] - p[0] / p[1]; }
static double gm_a(double *p, int n) { (void)n; return p[0] * p[1] * p[1] + sin(p[0]); }
/* vf's outputs weighted by the seeds used below (1, 2). */
static double vf_a(double *p, int n) { (void)n; double o[2]; vf(p, o); return o[0] + 2.0 * o[1]; }

int main(void) {
  for (int k = 0; k < 5; k++) {
    double x = ad_test_uniform(0.5, 2.0), y = ad_test_uniform(-2.0, 2.0),
           z = ad_test_uniform(0.5, 2.0), p[3] = {x, y, z};
    struct d2 a = __ad_autodiff_d2((void *)g2, x, y);
    struct d2 b = __ad_autodiff_d2((void *)g2, __ad_out, x, __ad_out, y);
    CHECK_DERIV(a.dx, 2 * x * y - y / (x * x), ad_fd_array(g2_a, p, 2, 0));
    CHECK_DERIV(a.dy, x * x + 1 / x, ad_fd_array(g2_a, p, 2, 1));
    CHECK_CLOSE(b.dx, a.dx, TOL_EXACT);
    CHECK_CLOSE(b.dy, a.dy, TOL_EXACT);
    CHECK_CLOSE(__ad_autodiff_t(g2, x, __ad_const, y), a.dx, TOL_EXACT);

    struct d3 c = __ad_autodiff_d3((void *)g3, x, y, z);
    CHECK_DERIV(c.dx, y * z + 1 / z, ad_fd_array(g3_a, p, 3, 0));
    CHECK_DERIV(c.dy, x * z, ad_fd_array(g3_a, p, 3, 1));
    CHECK_DERIV(c.dz, x * y - x / (z * z), ad_fd_array(g3_a, p, 3, 2));
    struct d2 m = __ad_autodiff_d2((void *)g3, x, __ad_const, y, z); /* {d/dx, d/dz} */
    CHECK_CLOSE(m.dx, c.dx, TOL_EXACT);
    CHECK_CLOSE(m.dy, c.dz, TOL_EXACT);
    CHECK_CLOSE(__ad_fwddiff((void *)g3, x, 1.0, y, -1.0, z, 0.5), c.dx - c.dy + 0.5 * c.dz,
                TOL_EXACT);

    float xf = (float)x, yf = (float)y;
    double X = xf, Y = yf, q[2] = {X, Y};
    struct f2 f = __ad_autodiff_f2((void *)gf, xf, yf);
    CHECK_DERIVF(f.dx, Y * Y - 1 / Y, ad_fd_array(gf_a, q, 2, 0));
    CHECK_DERIVF(f.dy, 2 * X * Y + X / (Y * Y), ad_fd_array(gf_a, q, 2, 1));
    q[1] = y;
    struct fd h = __ad_autodiff_fd((void *)gm, xf, y);
    CHECK_DERIVF(h.da, y * y + cos(X), ad_fd_array(gm_a, q, 2, 0));
    CHECK_DERIVF(h.db, 2 * X * y, ad_fd_array(gm_a, q, 2, 1));

    /* Only duplicated pointers: out's shadow is the seed and is reset to 0. */
    double in[2] = {x, y}, din[2] = {0.5, -0.5}, out[2] = {7, 7}, dout[2] = {1.0, 2.0}, ref[2];
    vf(in, ref);
    __ad_autodiff_v((void *)vf, in, din, out, dout);
    CHECK_TRUE(out[0] == ref[0] && out[1] == ref[1]);
    CHECK_TRUE(dout[0] == 0.0 && dout[1] == 0.0);
    CHECK_DERIV(din[0] - 0.5, y + 2 * cos(x), ad_fd_array(vf_a, in, 2, 0));
    CHECK_DERIV(din[1] + 0.5, x + 4 * y, ad_fd_array(vf_a, in, 2, 1));
    /* Forward: tangent of out = J * tangent of in. */
    double tin[2] = {1.0, 3.0}, tout[2] = {9, 9};
    __ad_fwddiff_v((void *)vf, in, tin, out, tout);
    CHECK_CLOSE(tout[0], y + 3 * x, TOL_EXACT);
    CHECK_CLOSE(tout[1], cos(x) + 6 * y, TOL_EXACT);
  }
  return ad_test_finish();
}
