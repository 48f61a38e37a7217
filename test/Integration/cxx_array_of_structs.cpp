// std::array of structs in the differentiated function, as a small physics
// code keeps its state: std::array<Body, 4> of bodies (mass, position and
// velocity, each a std::array<double, 3>) passed by reference with a shadow
// array, advanced by leapfrog steps of softened gravity, with the final
// kinetic plus potential energy as the output. The masses are integers'
// neighbours: a Body also holds an int id that carries no derivative.
// Checked against central differences for every position and velocity, and
// forward against reverse (<J v, w> = <v, J^T w>) over the whole state,
// written state included.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <array>
#include <cmath>

using Vec3 = std::array<double, 3>;
struct Body {
  int id;
  double mass;
  Vec3 pos, vel;
};
constexpr int N = 4;
using System = std::array<Body, N>;

static Vec3 accel_on(const System &s, int i) {
  Vec3 a{};
  for (int j = 0; j < N; j++) {
    if (j == i)
      continue;
    Vec3 d;
    double r2 = 0.05; // softening
    for (int k = 0; k < 3; k++) {
      d[k] = s[j].pos[k] - s[i].pos[k];
      r2 += d[k] * d[k];
    }
    double inv = s[j].mass / (r2 * std::sqrt(r2));
    for (int k = 0; k < 3; k++)
      a[k] += d[k] * inv;
  }
  return a;
}

static double energy(const System &s) {
  double e = 0;
  for (const Body &b : s)
    for (double v : b.vel)
      e += 0.5 * b.mass * v * v;
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      double r2 = 0.05;
      for (int k = 0; k < 3; k++) {
        double d = s[i].pos[k] - s[j].pos[k];
        r2 += d * d;
      }
      e -= s[i].mass * s[j].mass / std::sqrt(r2);
    }
  return e;
}

/* steps leapfrog steps in place; returns the energy afterwards. */
double simulate(System &s, int steps, double dt) {
  for (int t = 0; t < steps; t++) {
    std::array<Vec3, N> acc;
    for (int i = 0; i < N; i++)
      acc[i] = accel_on(s, i);
    for (Body &b : s)
      for (int k = 0; k < 3; k++)
        b.vel[k] += 0.5 * dt * acc[b.id][k];
    for (Body &b : s)
      for (int k = 0; k < 3; k++)
        b.pos[k] += dt * b.vel[k];
    for (int i = 0; i < N; i++)
      acc[i] = accel_on(s, i);
    for (Body &b : s)
      for (int k = 0; k < 3; k++)
        b.vel[k] += 0.5 * dt * acc[b.id][k];
  }
  return energy(s);
}

static System initial() {
  System s;
  for (int i = 0; i < N; i++) {
    s[i].id = i;
    s[i].mass = 1.0 + 0.25 * i;
    for (int k = 0; k < 3; k++) {
      s[i].pos[k] = std::cos(1.7 * i + k) * (1 + 0.3 * k);
      s[i].vel[k] = 0.2 * std::sin(2.3 * i - k);
    }
  }
  return s;
}
static double *slot(System &s, int i) { // positions, then velocities
  int b = i / 6, k = i % 6;
  return k < 3 ? &s[b].pos[k] : &s[b].vel[k - 3];
}

int main() {
  const int steps = 5;
  const double dt = 0.01;
  System s = initial(), ds{}, seed{};
  __ad_autodiff((void *)simulate, &s, &ds, __ad_const, steps, __ad_const, dt);
  CHECK_TRUE(s[2].id == 2); /* the primal ran once, ids untouched */
  System ref = initial();
  simulate(ref, steps, dt);
  CHECK_CLOSE(s[1].pos[2], ref[1].pos[2], 0);
  for (int i = 0; i < 6 * N; i++) {
    System p = initial(), m = initial();
    double h = 1e-6;
    *slot(p, i) += h;
    *slot(m, i) -= h;
    double fd = (simulate(p, steps, dt) - simulate(m, steps, dt)) / (2 * h);
    CHECK_CLOSE(*slot(ds, i), fd, 1e-6);
  }
  /* Forward against reverse, with a seed on the final state too:
   * <dE + w . dstate_out, v> computed both ways. */
  System x0 = initial(), v{}, w{}, dx{};
  for (int i = 0; i < 6 * N; i++) {
    *slot(v, i) = ad_test_uniform(-1, 1);
    *slot(w, i) = ad_test_uniform(-1, 1);
  }
  System xr = x0, wr = w; /* reverse: the seed of the written state is w */
  double rev = 0;
  __ad_autodiff((void *)simulate, &xr, &wr, __ad_const, steps, __ad_const,
                dt);
  for (int i = 0; i < 6 * N; i++)
    rev += *slot(wr, i) * *slot(v, i);
  System xf = x0, vf = v;
  double fwd = __ad_fwddiff((void *)simulate, &xf, &vf, __ad_const, steps,
                            __ad_const, dt);
  for (int i = 0; i < 6 * N; i++)
    fwd += *slot(vf, i) * *slot(w, i);
  CHECK_CLOSE(fwd, rev, 1e-11);
  (void)dx;
  (void)seed;
  return ad_test_finish();
}
