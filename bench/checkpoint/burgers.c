/* burgers.c - 1-D viscous Burgers, explicit, periodic (checkpoint.h).
 *
 * CKPT_API is empty for the plain build and `static` where checkpoint_ad.c
 * includes this file to differentiate it.
 */
#include "checkpoint.h"

CKPT_API double burgers(double *u, double *un, int n, int steps, double dt,
                        double dx, double nu) {
  const double c = dt / (2 * dx), r = nu * dt / (dx * dx);
  double *a = u, *b = un;
  for (int s = 0; s < steps; s++) {
    b[0] =
        a[0] - c * a[0] * (a[1] - a[n - 1]) + r * (a[1] - 2 * a[0] + a[n - 1]);
    for (int i = 1; i < n - 1; i++)
      b[i] = a[i] - c * a[i] * (a[i + 1] - a[i - 1]) +
             r * (a[i + 1] - 2 * a[i] + a[i - 1]);
    b[n - 1] = a[n - 1] - c * a[n - 1] * (a[0] - a[n - 2]) +
               r * (a[0] - 2 * a[n - 1] + a[n - 2]);
    double *t = a;
    a = b;
    b = t;
  }
  double loss = 0;
  for (int i = 0; i < n; i++)
    loss += a[i] * a[i];
  return loss;
}
