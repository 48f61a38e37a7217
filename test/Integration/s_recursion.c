// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// Checks recursive functions: power by squaring, recursive Horner, tail and mutual recursion.
#include <ad.h>
#include "ad_test.h"

#define TOL_EXACT 1e-10
#define TOL_FD 1e-5
/* AD derivative vs the closed form and vs a central finite difference. */
#define CHECK_DERIV(ad, exact, fd)                                             \
  do {                                                                         \
    double ad_ = (ad); /* evaluate once: AD calls accumulate into shadows */  \
    CHECK_CLOSE(ad_, (exact), TOL_EXACT);                                      \
    CHECK_CLOSE(ad_, (fd), TOL_FD);                                            \
  } while (0)

struct d2 { double dx, dy; };
struct d2 __ad_autodiff_d2(void *, ...);

/* x^n by squaring: d = n x^(n-1). */
static double rpow(double x, int n) {
  if (n == 0)
    return 1.0;
  if (n % 2 == 0) {
    double h = rpow(x, n / 2);
    return h * h;
  }
  return x * rpow(x, n - 1);
}
/* c[0] + x (c[1] + x (c[2] + ...)), depth n. */
static double horner(double x, const double *c, int n) {
  return n == 0 ? 0.0 : c[0] + x * horner(x, c + 1, n - 1);
}
/* Tail recursion (a loop at -O2): acc x^n + sum_{i<n} x^i. */
static double tail(double x, double acc, int n) {
  return n == 0 ? acc : tail(x, acc * x + 1.0, n - 1);
}
/* Mutual recursion: a_n = x b_{n-1}, b_n = x + sin(a_{n-1}), a_0 = x, b_0 = 1. */
static double mb(double x, int n);
static double ma(double x, int n) { return n == 0 ? x : x * mb(x, n - 1); }
static double mb(double x, int n) { return n == 0 ? 1.0 : x + sin(ma(x, n - 1)); }
/* Reference for ma: the same recursion carried with its derivative by hand. */
static void ma_ref(double x, int n, double *v, double *d);
static void mb_ref(double x, int n, double *v, double *d) {
  if (n == 0) { *v = 1.0; *d = 0.0; return; }
  double a, da;
  ma_ref(x, n - 1, &a, &da);
  *v = x + sin(a);
  *d = 1.0 + cos(a) * da;
}
static void ma_ref(double x, int n, double *v, double *d) {
  if (n == 0) { *v = x; *d = 1.0; return; }
  double b, db;
  mb_ref(x, n - 1, &b, &db);
  *v = x * b;
  *d = b + x * db;
}

static int cur_n;
static double cur_acc, cur_x;
static const double coef[9] = {1.0, -2.0, 0.5, 3.0, -1.5, 0.25, 2.0, -0.75, 1.25};
static double rpow_n(double x) { return rpow(x, cur_n); }
static double horner_n(double x) { return horner(x, coef, cur_n); }
static double tail_n(double x) { return tail(x, cur_acc, cur_n); }
static double ma_n(double x) { return ma(x, cur_n); }
static double tail_acc(double acc) { return tail(cur_x, acc, cur_n); }
static double horner_c(double *c, int n) { return horner(cur_x, c, n); }

int main(void) {
  static const int ns[] = {0, 1, 2, 5, 8, 9};
  for (int in = 0; in < 6; in++) {
    int n = cur_n = ns[in];
    for (int j = 0; j < 5; j++) {
      double x = cur_x = ad_test_uniform(-1.3, 1.3);
      double er = n == 0 ? 0.0 : n * pow(x, n - 1);
      CHECK_DERIV(__ad_autodiff((void *)rpow, x, n), er, ad_fd1(rpow_n, x));
      CHECK_DERIV(__ad_fwddiff((void *)rpow, x, 1.0, n), er, ad_fd1(rpow_n, x));

      /* Horner: d/dx and, through the coefficients' shadow, d/dc[i] = x^i. */
      double eh = 0.0, dc[9] = {0}, cc[9];
      for (int i = 1; i < n; i++)
        eh += i * coef[i] * pow(x, i - 1);
      CHECK_DERIV(__ad_autodiff((void *)horner, x, __ad_const, coef, n), eh, ad_fd1(horner_n, x));
      CHECK_DERIV(__ad_autodiff((void *)horner, x, coef, dc, n), eh, ad_fd1(horner_n, x));
      for (int i = 0; i < 9; i++)
        cc[i] = coef[i];
      for (int i = 0; i < 9; i++)
        CHECK_DERIV(dc[i], i < n ? pow(x, i) : 0.0, ad_fd_array(horner_c, cc, n, i));

      double acc = cur_acc = ad_test_uniform(-1.0, 1.0), et = n * acc * pow(x, n - 1);
      for (int i = 1; i < n; i++)
        et += i * pow(x, i - 1);
      struct d2 t = __ad_autodiff_d2((void *)tail, x, acc, n);
      CHECK_DERIV(t.dx, n == 0 ? 0.0 : et, ad_fd1(tail_n, x));
      CHECK_DERIV(t.dy, pow(x, n), ad_fd1(tail_acc, acc));

      double v, d;
      ma_ref(x, n, &v, &d);
      CHECK_DERIV(__ad_autodiff((void *)ma, x, n), d, ad_fd1(ma_n, x));
      CHECK_DERIV(__ad_fwddiff((void *)ma, x, 1.0, n), d, ad_fd1(ma_n, x));
    }
  }
  return ad_test_finish();
}
