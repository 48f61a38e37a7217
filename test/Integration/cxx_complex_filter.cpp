// std::complex in a signal-processing kernel, as a C++ user writes one: the
// frequency response H(iw) = w0^2 / ((iw)^2 + 2 zeta w0 (iw) + w0^2) of a
// second-order filter, fitted in magnitude (std::abs) and phase (std::arg)
// to target curves, with the filter's parameters as the inputs; and the
// power spectrum of a real signal through a DFT whose twiddle factors are
// std::exp of imaginary arguments (and std::polar), summed with std::norm.
// Both modes, checked against central differences and forward against
// reverse; the DFT's gradient has a closed form (Parseval).
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <complex>

using cd = std::complex<double>;
enum { NF = 7, NS = 8 };
static const double freqs[NF] = {0.1, 0.4, 0.8, 1.0, 1.3, 2.0, 3.5};
static const double target_db[NF] = {0.1, 0.5, 2.0, 6.0, 1.0, -8.0, -20.0};
static const double target_phase[NF] = {-0.05, -0.2, -0.8, -1.5, -2.3,
                                        -2.8, -3.0};

static cd response(double w0, double zeta, double w) {
  cd s(0.0, w);
  return w0 * w0 / (s * s + 2.0 * zeta * w0 * s + w0 * w0);
}
/* Least squares in decibels and radians. */
double filter_fit(double w0, double zeta) {
  double loss = 0;
  for (int k = 0; k < NF; k++) {
    cd h = response(w0, zeta, freqs[k]);
    double db = 20 * std::log10(std::abs(h));
    double ph = std::arg(h);
    loss += (db - target_db[k]) * (db - target_db[k]) +
            4 * (ph - target_phase[k]) * (ph - target_phase[k]);
  }
  return loss;
}

/* sum_k |X_k|^2 w_k, X_k = sum_n x_n exp(-2 pi i k n / N). */
double weighted_power(const double *x) {
  double p = 0;
  for (int k = 0; k < NS; k++) {
    cd X = 0;
    for (int n = 0; n < NS; n++) {
      double th = -2 * M_PI * k * n / NS;
      X += x[n] * (n % 2 ? std::polar(1.0, th) : std::exp(cd(0, th)));
    }
    p += (1.0 + 0.5 * k) * std::norm(X);
  }
  return p;
}
static double power_fd(double *x, int) { return weighted_power(x); }

struct d2 {
  double dw0, dzeta;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  for (double w0 = 0.7; w0 < 1.6; w0 += 0.4)
    for (double zeta = 0.15; zeta < 1.0; zeta += 0.3) {
      d2 g = __ad_autodiff_d2((void *)filter_fit, w0, zeta);
      double h = 1e-6;
      CHECK_CLOSE(g.dw0,
                  (filter_fit(w0 + h, zeta) - filter_fit(w0 - h, zeta)) /
                      (2 * h),
                  1e-5);
      CHECK_CLOSE(g.dzeta,
                  (filter_fit(w0, zeta + h) - filter_fit(w0, zeta - h)) /
                      (2 * h),
                  1e-5);
      CHECK_CLOSE(__ad_fwddiff((void *)filter_fit, w0, 0.6, zeta, -1.3),
                  0.6 * g.dw0 - 1.3 * g.dzeta, 1e-11);
    }

  double x[NS], g[NS] = {}, v[NS], dot = 0;
  for (int n = 0; n < NS; n++) {
    x[n] = ad_test_uniform(-1, 1);
    v[n] = ad_test_uniform(-1, 1);
  }
  __ad_autodiff((void *)weighted_power, x, g);
  for (int n = 0; n < NS; n++) {
    /* d/dx_n = 2 sum_k w_k Re(conj(X_k) e^{-2 pi i k n / N}) */
    double want = 0;
    for (int k = 0; k < NS; k++) {
      cd X = 0;
      for (int m = 0; m < NS; m++)
        X += x[m] * std::exp(cd(0, -2 * M_PI * k * m / NS));
      want += 2 * (1.0 + 0.5 * k) *
              std::real(std::conj(X) * std::exp(cd(0, -2 * M_PI * k * n / NS)));
    }
    CHECK_CLOSE(g[n], want, 1e-11);
    CHECK_CLOSE(g[n], ad_fd_array(power_fd, x, NS, n), 1e-6);
    dot += g[n] * v[n];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)weighted_power, x, v), dot, 1e-11);
  return ad_test_finish();
}
