/* checkpoint_check.c - checks the plugin's gradients of the Burgers and
 * heat runs (checkpoint.h).
 *
 *   checkpoint_check [n burgers_steps [nx ny heat_steps]]
 *                     (default 200 300 24 24 300)
 *
 * For each problem, with AD_TAPE_BUDGET unset and then set to each of
 * kBudgets (bytes; the plugin's run-time reads it when the gradient runs,
 * and a budget below the stored states makes a checkpointing gradient
 * recompute):
 *   - the plugin's gradient against the handwritten one, every component,
 *     relative error below 1e-9 (the gradients are positive everywhere: each
 *     step's Jacobian has no negative entry at these parameters);
 *   - u and un afterwards as the primal run leaves them (to 1e-12);
 * and once, the handwritten gradient against central finite differences on
 * a few components (relative error below 1e-6) and its loss against the
 * plain primal's. Prints a line per check and exits with the number of
 * failed checks.
 */
#include "checkpoint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* The budgets the plugin's gradients run under besides none: one that
 * holds everything, and ones below the stored states of the default sizes
 * (Burgers 480 KB, heat 1.4 MB). */
static const char *const kBudgets[] = {"1073741824", "262144", "65536"};

/* One problem behind function pointers: cells, the primal, both gradients. */
typedef struct {
  const char *name;
  size_t cells;
  double (*run)(const void *p, double *u, double *un);
  void (*grad_ad)(const void *p, double *u, double *du, double *un,
                  double *dun);
  double (*grad_manual)(const void *p, double *u, double *du, double *un);
  const void *problem;
} problem_ops;

static double run_burgers(const void *p, double *u, double *un) {
  return burgers_run(p, u, un);
}
static void ad_burgers(const void *p, double *u, double *du, double *un,
                       double *dun) {
  burgers_grad_ad(p, u, du, un, dun);
}
static double manual_burgers(const void *p, double *u, double *du, double *un) {
  return burgers_grad_manual(p, u, du, un);
}
static double run_heat2d(const void *p, double *u, double *un) {
  return heat2d_run(p, u, un);
}
static void ad_heat2d(const void *p, double *u, double *du, double *un,
                      double *dun) {
  heat2d_grad_ad(p, u, du, un, dun);
}
static double manual_heat2d(const void *p, double *u, double *du, double *un) {
  return heat2d_grad_manual(p, u, du, un);
}

/* Final states agree to rounding (the plugin's forward sweep need not
 * round as the plain build does; in practice they are equal). */
static int same_state(const double *a, const double *b, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (!(fabs(a[i] - b[i]) <= 1e-12 * fabs(b[i])))
      return 0;
  return 1;
}

static double *doubles(size_t count) {
  double *p = calloc(count, sizeof(double));
  if (!p)
    abort();
  return p;
}

/* The loss at u0 + delta e_i. */
static double loss_at(const problem_ops *o, const double *u0, size_t i,
                      double delta, double *u, double *un) {
  memcpy(u, u0, sizeof(double) * o->cells);
  u[i] += delta;
  return o->run(o->problem, u, un);
}

static void check(const problem_ops *o, const double *u0) {
  size_t N = o->cells;
  double *u = doubles(N), *un = doubles(N), *du = doubles(N), *dun = doubles(N),
         *grad = doubles(N), *u_end = doubles(N), *un_end = doubles(N);

  /* The plain primal: its loss and final buffers. */
  memcpy(u_end, u0, sizeof(double) * N);
  double loss = o->run(o->problem, u_end, un_end);

  /* The handwritten gradient: loss and buffers as the primal's. */
  memcpy(u, u0, sizeof(double) * N);
  double manual_loss = o->grad_manual(o->problem, u, grad, un);
  int ok = fabs(manual_loss - loss) <= 1e-12 * fabs(loss) &&
           same_state(u, u_end, N) && same_state(un, un_end, N);
  printf("%s: loss %.15g, handwritten %.15g, final buffers %s: %s\n", o->name,
         loss, manual_loss, ok ? "equal" : "differ", ok ? "ok" : "FAILED");
  failures += !ok;

  /* The handwritten gradient against central differences. */
  size_t picks[] = {0, N / 7, N / 3, N / 2, (2 * N) / 3, N - 1};
  double worst_fd = 0;
  for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++) {
    size_t i = picks[k];
    double h = 1e-6;
    double fd =
        (loss_at(o, u0, i, h, u, un) - loss_at(o, u0, i, -h, u, un)) / (2 * h);
    double err = fabs(fd - grad[i]) / fabs(grad[i]);
    if (!(err <= 1e-6))
      fprintf(stderr,
              "%s: component %zu: handwritten %.12g, finite "
              "difference %.12g\n",
              o->name, i, grad[i], fd);
    worst_fd = err > worst_fd || err != err ? err : worst_fd;
  }
  ok = worst_fd <= 1e-6;
  printf("%s: handwritten vs finite differences on %zu components: worst "
         "relative error %.2g: %s\n",
         o->name, sizeof picks / sizeof picks[0], worst_fd,
         ok ? "ok" : "FAILED");
  failures += !ok;

  /* The plugin's gradient, with no budget and then each one. */
  for (int b = -1; b < (int)(sizeof kBudgets / sizeof kBudgets[0]); b++) {
    if (b < 0)
      unsetenv("AD_TAPE_BUDGET");
    else
      setenv("AD_TAPE_BUDGET", kBudgets[b], 1);
    memcpy(u, u0, sizeof(double) * N);
    memset(un, 0, sizeof(double) * N);
    memset(du, 0, sizeof(double) * N);
    memset(dun, 0, sizeof(double) * N);
    o->grad_ad(o->problem, u, du, un, dun);
    double worst = 0;
    size_t bad = 0, worst_at = 0;
    for (size_t i = 0; i < N; i++) {
      double err = fabs(du[i] - grad[i]) / fabs(grad[i]);
      if (!(err <= 1e-9)) {
        if (bad++ < 5)
          fprintf(stderr,
                  "%s: component %zu: plugin %.15g, handwritten "
                  "%.15g\n",
                  o->name, i, du[i], grad[i]);
      }
      if (err > worst || err != err) {
        worst = err;
        worst_at = i;
      }
    }
    int buffers = same_state(u, u_end, N) && same_state(un, un_end, N);
    ok = bad == 0 && buffers;
    printf("%s: plugin vs handwritten, AD_TAPE_BUDGET=%s: %zu of %zu "
           "components off, worst relative error %.2g (component %zu), "
           "final buffers %s: %s\n",
           o->name, b < 0 ? "(unset)" : kBudgets[b], bad, N, worst, worst_at,
           buffers ? "as the primal's" : "differ", ok ? "ok" : "FAILED");
    failures += !ok;
  }
  unsetenv("AD_TAPE_BUDGET");
  free(u);
  free(un);
  free(du);
  free(dun);
  free(grad);
  free(u_end);
  free(un_end);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  int bsteps = argc > 2 ? atoi(argv[2]) : 300;
  int nx = argc > 3 ? atoi(argv[3]) : 24;
  int ny = argc > 4 ? atoi(argv[4]) : 24;
  int hsteps = argc > 5 ? atoi(argv[5]) : 300;
  if (n < 3 || bsteps < 1 || nx < 3 || ny < 3 || hsteps < 1) {
    fprintf(stderr, "usage: checkpoint_check [n burgers_steps [nx ny "
                    "heat_steps]] (n, nx, ny >= 3, steps >= 1)\n");
    return 2;
  }

  burgers_problem bp = burgers_make(n, bsteps);
  double *bu0 = doubles((size_t)n);
  burgers_init(&bp, bu0);
  char bname[64];
  snprintf(bname, sizeof bname, "burgers n=%d steps=%d", n, bsteps);
  problem_ops bo = {bname,      (size_t)n,      run_burgers,
                    ad_burgers, manual_burgers, &bp};
  check(&bo, bu0);

  heat2d_problem hp = heat2d_make(nx, ny, hsteps);
  double *hu0 = doubles((size_t)nx * ny);
  heat2d_init(&hp, hu0);
  char hname[64];
  snprintf(hname, sizeof hname, "heat2d %dx%d steps=%d", nx, ny, hsteps);
  problem_ops ho = {hname,     (size_t)nx * ny, run_heat2d,
                    ad_heat2d, manual_heat2d,   &hp};
  check(&ho, hu0);

  printf(failures ? "%d check(s) FAILED\n" : "all checks passed\n", failures);
  free(bu0);
  free(hu0);
  return failures;
}
