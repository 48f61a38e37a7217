/* heat2d.c - 2-D heat equation with a logistic source, explicit, periodic
 * (checkpoint.h).
 *
 * CKPT_API is empty for the plain build and `static` where checkpoint_ad.c
 * includes this file to differentiate it.
 */
#include "checkpoint.h"

/* One cell: centre, its four neighbours, diffusion number s = kappa dt / h^2
 * and g = rate dt. */
static inline double heat2d_cell(double c, double w, double e, double n,
                                 double so, double s, double g) {
  return c + s * (w + e + n + so - 4 * c) + g * c * (1 - c);
}

CKPT_API double heat2d(double *u, double *un, int nx, int ny, int steps,
                       double dt, double h, double kappa, double rate) {
  const double s = kappa * dt / (h * h), g = rate * dt;
  double *a = u, *b = un;
  for (int t = 0; t < steps; t++) {
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
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double loss = 0;
  for (size_t k = 0; k < (size_t)nx * ny; k++)
    loss += a[k] * a[k];
  return loss;
}
