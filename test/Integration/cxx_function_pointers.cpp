// Functions passed as values into the differentiated function, as numerical
// C++ code passes them: a captureless lambda converted to a function
// pointer and handed to a quadrature routine as an __ad_const argument (the
// call through it is indirect at every -O level), a table of such pointers
// the caller fills at run time, a lambda's call operator called from a
// function template that takes the callable by const reference, and a
// std::function holding captureless lambdas. Every function the pointers
// may name is defined in this file, so each indirect call becomes a choice
// between direct calls of them (docs/CXX.md). Checked against closed forms,
// central differences and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <functional>

using Integrand = double (*)(double t, double p);

/* The trapezoid rule on [a, b] with n intervals: d/dp is the rule applied
 * to df/dp, exactly. */
double trapezoid(Integrand f, double a, double b, double p, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a, p) + f(b, p));
  for (int i = 1; i < n; i++)
    s += f(a + i * h, p);
  return s * h;
}

static const Integrand gaussian = [](double t, double p) {
  return std::exp(-p * t * t);
};
static Integrand damped = +[](double t, double p) {
  return std::sin(t) * std::exp(-p * t);
};

/* A model that applies a per-feature transform chosen at run time. */
using Feature = double (*)(double);
double features(const double *w, const double *x, const Feature *phi, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * phi[i](x[i]);
  return s;
}

/* A lambda's call operator, called from a function template. */
template <class Loss>
double batch_loss(const Loss &loss, const double *w, const double *xs,
                  const double *ys, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += loss(w[0] * xs[i] + w[1], ys[i]);
  return s / n;
}
double huber_fit(const double *w, const double *xs, const double *ys, int n,
                 double delta) {
  auto huber = [&delta](double pred, double y) {
    double r = pred - y;
    return std::fabs(r) <= delta ? 0.5 * r * r
                                 : delta * (std::fabs(r) - 0.5 * delta);
  };
  return batch_loss(huber, w, xs, ys, n);
}

/* std::function holding captureless lambdas, chosen by an integer. */
double by_name(double x, int which) {
  std::function<double(double)> f;
  if (which == 0)
    f = [](double t) { return t * t * t; };
  else
    f = [](double t) { return std::log1p(t * t); };
  return f(x) + f(2 * x);
}

static double trap_b(double b) { return trapezoid(gaussian, 0.2, b, 0.7, 16); }

int main() {
  /* d/dp, d/da, d/db of the rule; d/dp in closed form. */
  const int n = 16;
  for (Integrand f : {gaussian, damped}) {
    double a = 0.2, b = 1.9, p = 0.7;
    double dp = __ad_fwddiff((void *)trapezoid, __ad_const, f, a, 0.0, b, 0.0,
                             p, 1.0, __ad_const, n);
    double h = (b - a) / n, want = 0, eps = 1e-6;
    for (int i = 0; i <= n; i++) {
      double t = a + i * h, w = (i == 0 || i == n) ? 0.5 * h : h;
      want += w * (f(t, p + eps) - f(t, p - eps)) / (2 * eps);
    }
    CHECK_CLOSE(dp, want, 1e-7);
    double rev_dp = __ad_autodiff((void *)trapezoid, __ad_const, f,
                                  __ad_const, a, __ad_const, b, p, __ad_const,
                                  n);
    CHECK_CLOSE(rev_dp, dp, 1e-13);
    double db = __ad_autodiff((void *)trapezoid, __ad_const, f, __ad_const, a,
                              b, __ad_const, p, __ad_const, n);
    double db_fwd = __ad_fwddiff((void *)trapezoid, __ad_const, f, a, 0.0, b,
                                 1.0, p, 0.0, __ad_const, n);
    CHECK_CLOSE(db, db_fwd, 1e-13);
    if (f == gaussian)
      CHECK_CLOSE(db, ad_fd1(trap_b, b), 1e-6);
  }

  /* Features: d/dw[i] = phi_i(x_i); d/dx[i] = w_i phi_i'(x_i). */
  Feature phi[4] = {[](double t) { return t * t; },
                    [](double t) { return std::sin(t); },
                    [](double t) { return std::exp(0.5 * t); }, nullptr};
  phi[3] = phi[0];
  double w[4] = {0.5, -1.5, 2.0, 0.25}, x[4] = {0.3, 1.2, -0.4, 0.9};
  double dw[4] = {}, dx[4] = {};
  __ad_autodiff((void *)features, w, dw, x, dx, __ad_const, phi, __ad_const,
                4);
  double dphi[4] = {2 * x[0], std::cos(x[1]), 0.5 * std::exp(0.5 * x[2]),
                    2 * x[3]};
  double v[4] = {0.1, -0.7, 0.4, 1.1}, u[4] = {0.9, 0.2, -0.3, 0.5}, dot = 0;
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(dw[i], phi[i](x[i]), 1e-13);
    CHECK_CLOSE(dx[i], w[i] * dphi[i], 1e-13);
    dot += dw[i] * v[i] + dx[i] * u[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)features, w, v, x, u, __ad_const, phi,
                           __ad_const, 4),
              dot, 1e-13);

  /* Huber regression: both residual branches are taken. */
  double xs[6] = {-1, -0.5, 0, 0.5, 1, 1.5}, ys[6] = {-2, -0.4, 0.3, 3, 1.2, 2};
  double wl[2] = {1.1, 0.2}, dwl[2] = {}, delta = 0.8;
  __ad_autodiff((void *)huber_fit, wl, dwl, __ad_const, xs, __ad_const, ys,
                __ad_const, 6, __ad_const, delta);
  double want0 = 0, want1 = 0;
  for (int i = 0; i < 6; i++) {
    double r = wl[0] * xs[i] + wl[1] - ys[i];
    double d = std::fabs(r) <= delta ? r : delta * (r > 0 ? 1 : -1);
    want0 += d * xs[i] / 6;
    want1 += d / 6;
  }
  CHECK_CLOSE(dwl[0], want0, 1e-13);
  CHECK_CLOSE(dwl[1], want1, 1e-13);
  double vl[2] = {0.3, -0.6};
  CHECK_CLOSE(__ad_fwddiff((void *)huber_fit, wl, vl, __ad_const, xs,
                           __ad_const, ys, __ad_const, 6, __ad_const, delta),
              0.3 * want0 - 0.6 * want1, 1e-13);

  for (double t = 0.2; t < 1.5; t += 0.4) {
    CHECK_CLOSE(__ad_autodiff((void *)by_name, t, __ad_const, 0),
                3 * t * t + 24 * t * t, 1e-12);
    double want = 2 * t / (1 + t * t) + 8 * t / (1 + 4 * t * t);
    CHECK_CLOSE(__ad_autodiff((void *)by_name, t, __ad_const, 1), want, 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)by_name, t, 1.0, __ad_const, 1), want,
                1e-12);
  }
  return ad_test_finish();
}
