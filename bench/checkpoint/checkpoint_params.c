/* checkpoint_params.c - the problems' parameters and initial states, and
 * the primal runs by problem (checkpoint.h). Kept apart from burgers.c and
 * heat2d.c, which checkpoint_ad.c includes as static code. */
#include "checkpoint.h"

#include <math.h>

static const double kPi = 3.14159265358979323846;

burgers_problem burgers_make(int n, int steps) {
  burgers_problem p;
  p.n = n;
  p.steps = steps;
  p.dx = 1.0 / n;
  p.nu = p.dx;
  p.dt = 0.2 * p.dx * p.dx / p.nu;
  return p;
}

void burgers_init(const burgers_problem *p, double *u) {
  for (int i = 0; i < p->n; i++) {
    double x = (i + 0.5) * p->dx;
    u[i] = 0.5 + 0.25 * sin(2 * kPi * x) + 0.1 * sin(6 * kPi * x + 1);
  }
}

heat2d_problem heat2d_make(int nx, int ny, int steps) {
  heat2d_problem p;
  p.nx = nx;
  p.ny = ny;
  p.steps = steps;
  p.h = 1.0 / nx;
  p.kappa = 1;
  p.dt = 0.2 * p.h * p.h / p.kappa;
  p.rate = 1e-4 / p.dt;
  return p;
}

void heat2d_init(const heat2d_problem *p, double *u) {
  for (int j = 0; j < p->ny; j++)
    for (int i = 0; i < p->nx; i++) {
      double x = (i + 0.5) / p->nx, y = (j + 0.5) / p->ny;
      u[i + (size_t)p->nx * j] = 0.5 +
                                 0.3 * sin(2 * kPi * x) * cos(2 * kPi * y) +
                                 0.1 * sin(6 * kPi * (x + y));
    }
}

double burgers_run(const burgers_problem *p, double *u, double *un) {
  return burgers(u, un, p->n, p->steps, p->dt, p->dx, p->nu);
}

double heat2d_run(const heat2d_problem *p, double *u, double *un) {
  return heat2d(u, un, p->nx, p->ny, p->steps, p->dt, p->h, p->kappa, p->rate);
}
