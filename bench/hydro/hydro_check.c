/* hydro_check.c - checks the plugin's derivatives of the hydro run.
 *
 *   hydro_check [s [steps]]     (default s = 3, steps = 6)
 *
 * On a jittered mesh (no ties in the time-step minimum), against the plain
 * hydro.o: every component of the reverse-mode gradient against a central
 * finite difference, and forward mode against reverse along random
 * directions v (the result is a scalar, so <J v, w> = <v, J^T w> reduces to
 * the tangent equalling gradient . v), the tangent also against a finite
 * difference along v. Prints a line per check and exits with the number of
 * failed checks.
 */
#include "hydro.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static double run_at(const double *params, int n, int i, double delta, int s,
                     int steps, double *scratch) {
  memcpy(scratch, params, sizeof(double) * (size_t)n);
  scratch[i] += delta;
  return hydro_run(scratch, s, steps);
}

/* Every gradient component against (f(p + h e_i) - f(p - h e_i)) / 2h. */
static void check_fd(const double *params, const double *grad, int n, int s,
                     int steps) {
  double *scratch = malloc(sizeof(double) * (size_t)n);
  double *fd = malloc(sizeof(double) * (size_t)n);
  double scale = 0;
  for (int i = 0; i < n; i++) {
    double h = 1e-6 * fmax(fabs(params[i]), 1e-2);
    fd[i] = (run_at(params, n, i, h, s, steps, scratch) -
             run_at(params, n, i, -h, s, steps, scratch)) /
            (2 * h);
    scale = fmax(scale, fabs(fd[i] * fmax(fabs(params[i]), 1e-2)));
  }
  /* Components compare in units of the output's change per relative change
   * of the input, so e0 (1e4) and a coordinate (0.4) weigh alike; rounding
   * leaves about 1e-9 of the largest, and 1e-8 catches a relative error of
   * 1e-4 in a component a thousandth of the largest. */
  int bad = 0, nonzero = 0;
  double worst = 0;
  for (int i = 0; i < n; i++) {
    double unit = fmax(fabs(params[i]), 1e-2);
    double err = fabs(grad[i] - fd[i]) * unit / scale;
    worst = fmax(worst, err);
    nonzero += grad[i] != 0;
    if (!(err <= 1e-8)) {
      if (bad++ < 5)
        fprintf(stderr, "param %d: gradient %.12g, finite difference %.12g\n",
                i, grad[i], fd[i]);
    }
  }
  printf("gradient vs finite differences: %d of %d components off, %d "
         "nonzero, worst %.2g\n",
         bad, n, nonzero, worst);
  failures += bad > 0 || nonzero < 10;
  free(scratch);
  free(fd);
}

/* Forward against reverse, and forward against a finite difference. */
static void check_fwd_rev(const double *params, const double *grad, int n,
                          int s, int steps) {
  double *v = malloc(sizeof(double) * (size_t)n);
  double *shifted = malloc(sizeof(double) * (size_t)n);
  srand(7);
  for (int trial = 0; trial < 3; trial++) {
    for (int i = 0; i < n; i++)
      v[i] = (2.0 * rand() / RAND_MAX - 1) * fmax(fabs(params[i]), 1e-2);
    double tangent = hydro_tangent_ad(params, v, s, steps), dot = 0, mag = 0;
    for (int i = 0; i < n; i++) {
      dot += grad[i] * v[i];
      mag += fabs(grad[i] * v[i]);
    }
    double h = 1e-6, f[2];
    for (int side = 0; side < 2; side++) {
      for (int i = 0; i < n; i++)
        shifted[i] = params[i] + (side ? -h : h) * v[i];
      f[side] = hydro_run(shifted, s, steps);
    }
    double fd = (f[0] - f[1]) / (2 * h);
    double rev_err = fabs(tangent - dot) / mag;
    double fd_err = fabs(tangent - fd) / mag;
    int ok = rev_err <= 1e-12 && fd_err <= 1e-6;
    printf("direction %d: forward %.12g, reverse %.12g, finite difference "
           "%.12g: %s\n",
           trial, tangent, dot, fd, ok ? "ok" : "FAILED");
    failures += !ok;
  }
  free(v);
  free(shifted);
}

int main(int argc, char **argv) {
  int s = argc > 1 ? atoi(argv[1]) : 3;
  int steps = argc > 2 ? atoi(argv[2]) : 6;
  int n = hydro_nparams(s);
  double *params = malloc(sizeof(double) * (size_t)n);
  double *grad = calloc((size_t)n, sizeof(double));
  hydro_init_params(params, s, 0.05);
  printf("s=%d steps=%d: origin energy %.12g\n", s, steps,
         hydro_run(params, s, steps));
  hydro_grad_ad(params, grad, s, steps);
  check_fd(params, grad, n, s, steps);
  check_fwd_rev(params, grad, n, s, steps);
  printf(failures ? "%d check(s) FAILED\n" : "all checks passed\n", failures);
  free(params);
  free(grad);
  return failures;
}
