/* checkpoint_manual.c - handwritten adjoints of the Burgers and heat runs
 * (checkpoint.h): the baseline the plugin's gradients are timed against.
 *
 * The expert's way for a loop this short per step: the forward keeps the
 * state before every step (steps x state bytes, one malloc), then the
 * reverse walks the steps backwards, each time applying the transposed
 * Jacobian of the step at its stored state to the adjoint of the state
 * after it. Compiled by clang-22 -O2 without the plugin (the same compiler
 * and flags as the plugin's gradients).
 */
#include "checkpoint.h"

#include <stdlib.h>
#include <string.h>

static double *alloc_doubles(size_t count) {
  double *p = malloc(sizeof(double) * count);
  if (!p)
    abort();
  return p;
}

/* ---- Burgers ---------------------------------------------------------- */

static void burgers_step(const double *a, double *b, int n, double c,
                         double r) {
  b[0] = a[0] - c * a[0] * (a[1] - a[n - 1]) + r * (a[1] - 2 * a[0] + a[n - 1]);
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i] - c * a[i] * (a[i + 1] - a[i - 1]) +
           r * (a[i + 1] - 2 * a[i] + a[i - 1]);
  b[n - 1] = a[n - 1] - c * a[n - 1] * (a[0] - a[n - 2]) +
             r * (a[0] - 2 * a[n - 1] + a[n - 2]);
}

/* abar = J(a)^T bbar for b_k = a_k - c a_k (a_{k+1} - a_{k-1})
 *                              + r (a_{k+1} - 2 a_k + a_{k-1}):
 * a_i is b_i's centre, b_{i-1}'s right and b_{i+1}'s left neighbour. */
static inline double burgers_cell_adj(double am, double a0, double ap,
                                      double bm, double b0, double bp, double c,
                                      double r) {
  return b0 * (1 - c * (ap - am) - 2 * r) + bm * (r - c * am) +
         bp * (r + c * ap);
}

static void burgers_step_adj(const double *a, const double *bbar, double *abar,
                             int n, double c, double r) {
  abar[0] = burgers_cell_adj(a[n - 1], a[0], a[1], bbar[n - 1], bbar[0],
                             bbar[1], c, r);
  for (int i = 1; i < n - 1; i++)
    abar[i] = burgers_cell_adj(a[i - 1], a[i], a[i + 1], bbar[i - 1], bbar[i],
                               bbar[i + 1], c, r);
  abar[n - 1] = burgers_cell_adj(a[n - 2], a[n - 1], a[0], bbar[n - 2],
                                 bbar[n - 1], bbar[0], c, r);
}

double burgers_grad_manual(const burgers_problem *p, double *u, double *du,
                           double *un) {
  const int n = p->n, steps = p->steps;
  const double c = p->dt / (2 * p->dx), r = p->nu * p->dt / (p->dx * p->dx);
  const size_t N = (size_t)n;
  double *store = alloc_doubles(N * (size_t)steps);
  double *a = u, *b = un;
  for (int s = 0; s < steps; s++) {
    memcpy(store + N * (size_t)s, a, sizeof(double) * N);
    burgers_step(a, b, n, c, r);
    double *t = a;
    a = b;
    b = t;
  }
  double loss = 0;
  for (size_t i = 0; i < N; i++)
    loss += a[i] * a[i];

  double *bbar = alloc_doubles(N), *abar = alloc_doubles(N);
  for (size_t i = 0; i < N; i++)
    bbar[i] = 2 * a[i];
  for (int s = steps - 1; s >= 0; s--) {
    burgers_step_adj(store + N * (size_t)s, bbar, abar, n, c, r);
    double *t = abar;
    abar = bbar;
    bbar = t;
  }
  for (size_t i = 0; i < N; i++)
    du[i] += bbar[i];
  free(bbar);
  free(abar);
  free(store);
  return loss;
}

/* ---- heat with a logistic source -------------------------------------- */

static inline double heat2d_cell(double c, double w, double e, double n,
                                 double so, double s, double g) {
  return c + s * (w + e + n + so - 4 * c) + g * c * (1 - c);
}

static void heat2d_step(const double *a, double *b, int nx, int ny, double s,
                        double g) {
  for (int j = 0; j < ny; j++) {
    const double *row = a + (size_t)j * nx;
    const double *up = a + (size_t)(j == 0 ? ny - 1 : j - 1) * nx;
    const double *down = a + (size_t)(j == ny - 1 ? 0 : j + 1) * nx;
    double *out = b + (size_t)j * nx;
    out[0] = heat2d_cell(row[0], row[nx - 1], row[1], up[0], down[0], s, g);
    for (int i = 1; i < nx - 1; i++)
      out[i] =
          heat2d_cell(row[i], row[i - 1], row[i + 1], up[i], down[i], s, g);
    out[nx - 1] = heat2d_cell(row[nx - 1], row[nx - 2], row[0], up[nx - 1],
                              down[nx - 1], s, g);
  }
}

/* The step is symmetric in its neighbours: abar = bbar (1 - 4s + g (1 - 2a))
 * + s (sum of the neighbours' bbar). */
static void heat2d_step_adj(const double *a, const double *bbar, double *abar,
                            int nx, int ny, double s, double g) {
  const double centre = 1 - 4 * s + g;
  for (int j = 0; j < ny; j++) {
    const double *ar = a + (size_t)j * nx;
    const double *row = bbar + (size_t)j * nx;
    const double *up = bbar + (size_t)(j == 0 ? ny - 1 : j - 1) * nx;
    const double *down = bbar + (size_t)(j == ny - 1 ? 0 : j + 1) * nx;
    double *out = abar + (size_t)j * nx;
    out[0] = row[0] * (centre - 2 * g * ar[0]) +
             s * (row[nx - 1] + row[1] + up[0] + down[0]);
    for (int i = 1; i < nx - 1; i++)
      out[i] = row[i] * (centre - 2 * g * ar[i]) +
               s * (row[i - 1] + row[i + 1] + up[i] + down[i]);
    out[nx - 1] = row[nx - 1] * (centre - 2 * g * ar[nx - 1]) +
                  s * (row[nx - 2] + row[0] + up[nx - 1] + down[nx - 1]);
  }
}

double heat2d_grad_manual(const heat2d_problem *p, double *u, double *du,
                          double *un) {
  const int nx = p->nx, ny = p->ny, steps = p->steps;
  const double s = p->kappa * p->dt / (p->h * p->h), g = p->rate * p->dt;
  const size_t N = (size_t)nx * (size_t)ny;
  double *store = alloc_doubles(N * (size_t)steps);
  double *a = u, *b = un;
  for (int t = 0; t < steps; t++) {
    memcpy(store + N * (size_t)t, a, sizeof(double) * N);
    heat2d_step(a, b, nx, ny, s, g);
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double loss = 0;
  for (size_t k = 0; k < N; k++)
    loss += a[k] * a[k];

  double *bbar = alloc_doubles(N), *abar = alloc_doubles(N);
  for (size_t k = 0; k < N; k++)
    bbar[k] = 2 * a[k];
  for (int t = steps - 1; t >= 0; t--) {
    heat2d_step_adj(store + N * (size_t)t, bbar, abar, nx, ny, s, g);
    double *tmp = abar;
    abar = bbar;
    bbar = tmp;
  }
  for (size_t k = 0; k < N; k++)
    du[k] += bbar[k];
  free(bbar);
  free(abar);
  free(store);
  return loss;
}
