// A class hierarchy with a virtual energy() called inside the differentiated
// function, as a molecular-mechanics code writes it: bond potentials
// (harmonic, Morse, Lennard-Jones) behind an abstract Potential, a chain of
// particles whose bonds the caller passes as an array of `const Potential *`
// (__ad_const: the dynamic type is known only at run time), and an object
// built inside the differentiated function from a differentiated stiffness
// and called through a base reference. Both modes, checked against closed
// forms, central differences and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>

struct Potential {
  virtual ~Potential() = default;
  virtual double energy(double r) const = 0;
  /* A non-virtual helper that calls the virtual one. */
  double force(double r) const {
    double h = 1e-3;
    return -(energy(r + h) - energy(r - h)) / (2 * h);
  }
};
struct Harmonic : Potential {
  double k, r0;
  Harmonic(double k, double r0) : k(k), r0(r0) {}
  double energy(double r) const override {
    double d = r - r0;
    return 0.5 * k * d * d;
  }
};
struct Morse : Potential {
  double D, a, re;
  Morse(double D, double a, double re) : D(D), a(a), re(re) {}
  double energy(double r) const override {
    double e = 1 - std::exp(-a * (r - re));
    return D * e * e;
  }
};
struct LennardJones : Potential {
  double eps, sigma;
  LennardJones(double eps, double sigma) : eps(eps), sigma(sigma) {}
  double energy(double r) const override {
    double s6 = std::pow(sigma / r, 6);
    return 4 * eps * (s6 * s6 - s6);
  }
};
/* A subclass that overrides again and calls its base's version. */
struct ScaledMorse : Morse {
  double scale;
  ScaledMorse(double s) : Morse(1.2, 1.1, 1.0), scale(s) {}
  double energy(double r) const override { return scale * Morse::energy(r); }
};

/* Positions x[0..n) on a line; bond i joins x[i] and x[i+1]. */
double chain_energy(const double *x, int n, const Potential *const *bonds) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++)
    e += bonds[i]->energy(x[i + 1] - x[i]);
  return e;
}
/* An object built from a differentiated stiffness, used through its base. */
double built_inside(double k, double r) {
  Harmonic h(k, 1.0);
  const Potential &p = h;
  return p.energy(r) + 0.25 * p.energy(2 * r);
}

static const Harmonic harmonic(3.0, 1.1);
static const Morse morse(0.8, 1.4, 1.0);
static const LennardJones lj(0.5, 0.9);
static const ScaledMorse scaled(2.5);
static const Potential *const bonds[5] = {&harmonic, &morse, &lj, &scaled,
                                          &harmonic};
enum { N = 6 };
struct d2 {
  double dk, dr;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);
static double chain_fd(double *x, int) { return chain_energy(x, N, bonds); }

static double dmorse(const Morse &m, double r) {
  double e = std::exp(-m.a * (r - m.re));
  return 2 * m.D * (1 - e) * m.a * e;
}
static double dbond(int i, double r) {
  switch (i % 5) {
  case 0:
  case 4:
    return harmonic.k * (r - harmonic.r0);
  case 1:
    return dmorse(morse, r);
  case 2: {
    double s6 = std::pow(lj.sigma / r, 6);
    return 4 * lj.eps * (-12 * s6 * s6 + 6 * s6) / r;
  }
  default:
    return scaled.scale * dmorse(scaled, r);
  }
}

int main() {
  double x[N] = {0.0, 1.05, 2.2, 3.1, 4.3, 5.2};
  double g[N] = {};
  __ad_autodiff((void *)chain_energy, x, g, __ad_const, N, __ad_const,
                bonds);
  /* Closed form: bond i pulls x[i+1] with dE/dr and x[i] with -dE/dr. */
  double want[N] = {};
  for (int i = 0; i + 1 < N; i++) {
    double d = dbond(i, x[i + 1] - x[i]);
    want[i + 1] += d;
    want[i] -= d;
  }
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(g[i], ad_fd_array(chain_fd, x, N, i), 1e-6);
  }
  /* Forward against reverse: <grad, v> is the tangent along v. */
  double v[N], dot = 0;
  for (int i = 0; i < N; i++) {
    v[i] = ad_test_uniform(-1, 1);
    dot += g[i] * v[i];
  }
  CHECK_CLOSE(__ad_fwddiff((void *)chain_energy, x, v, __ad_const, N,
                           __ad_const, bonds),
              dot, 1e-12);

  /* Harmonic(k, 1): E = k/2 (r-1)^2 + k/8 (2r-1)^2. */
  for (double r = 0.4; r < 2.0; r += 0.5) {
    double k = 1.7;
    d2 d = __ad_autodiff_d2((void *)built_inside, k, r);
    CHECK_CLOSE(d.dk, 0.5 * (r - 1) * (r - 1) + 0.125 * (2 * r - 1) * (2 * r - 1),
                1e-12);
    CHECK_CLOSE(d.dr, k * (r - 1) + 0.5 * k * (2 * r - 1), 1e-12);
    CHECK_CLOSE(__ad_fwddiff((void *)built_inside, k, 0.3, r, -0.6),
                0.3 * d.dk - 0.6 * d.dr, 1e-12);
  }
  return ad_test_finish();
}
