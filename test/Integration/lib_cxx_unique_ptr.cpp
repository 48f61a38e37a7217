// std::unique_ptr in the differentiated function: std::make_unique of a
// struct holding differentiated values, a std::unique_ptr<double[]> scratch
// buffer, ownership moved into a helper that returns it, reset() and the
// automatic delete at scope exit (operator new/delete get shadows allocated
// and freed alike). Checked against closed forms and forward against
// reverse; valgrind checks that every shadow is freed.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <memory>

struct State {
  double pos, vel;
  State(double p, double v) : pos(p), vel(v) {}
  void step(double dt) {
    pos += vel * dt;
    vel -= pos * dt;
  }
};

static std::unique_ptr<State> advanced(std::unique_ptr<State> s, int n) {
  for (int i = 0; i < n; i++)
    s->step(0.1);
  return s;
}

/* The state after 3 steps, pos^2 + vel */
double simulate(double p, double v) {
  auto s = std::make_unique<State>(p, v);
  s = advanced(std::move(s), 3);
  double r = s->pos * s->pos + s->vel;
  s.reset();
  return r;
}
/* sum_i (x_i^2 + 1) * x_i through a unique_ptr<double[]> */
double scratch(const double *x, int n) {
  std::unique_ptr<double[]> t(new double[n]);
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i] + 1;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  return s;
}

struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  /* Three linear steps: (pos, vel) -> A^3 (pos, vel), A = [[1, dt], [-dt,
     1 - dt^2]]; pos3 = a p + b v, vel3 = c p + d v. */
  double dt = 0.1, A[2][2] = {{1, dt}, {-dt, 1 - dt * dt}}, M[2][2] = {{1, 0}, {0, 1}};
  for (int k = 0; k < 3; k++) {
    double R[2][2];
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        R[i][j] = A[i][0] * M[0][j] + A[i][1] * M[1][j];
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        M[i][j] = R[i][j];
  }
  double p = 0.8, v = -0.3, pos = M[0][0] * p + M[0][1] * v;
  d2 g = __ad_autodiff_d2((void *)simulate, p, v);
  CHECK_CLOSE(g.dx, 2 * pos * M[0][0] + M[1][0], 1e-13);
  CHECK_CLOSE(g.dy, 2 * pos * M[0][1] + M[1][1], 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)simulate, p, 1.0, v, 0.0), g.dx, 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)simulate, p, 0.0, v, 1.0), g.dy, 1e-13);
  const int n = 5;
  double x[n] = {0.5, -1.0, 2.0, 0.1, 1.5}, dx[n] = {0}, tx[n] = {0};
  __ad_autodiff((void *)scratch, x, dx, n);
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(dx[i], 3 * x[i] * x[i] + 1, 1e-13);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)scratch, x, tx, n), dx[i], 1e-13);
    tx[i] = 0;
  }
  return ad_test_finish();
}
