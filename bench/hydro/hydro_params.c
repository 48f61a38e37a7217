/* hydro_params.c - the parameters of the Sedov problem (hydro.h). Kept
 * apart from hydro.c, which hydro_ad.c includes as static code. */
#include "hydro.h"

#include <math.h>

int hydro_nparams(int s) { return 2 + 3 * (s + 1) * (s + 1) * (s + 1); }

/* A small linear congruential generator: the same jitter everywhere. */
static double jitter_value(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (double)(*state >> 8) / (double)(1u << 24) - 0.5;
}

void hydro_init_params(double *params, int s, double jitter) {
  int s1 = s + 1, nn = s1 * s1 * s1;
  double h = 1.125 / s; /* LULESH's mesh edge */
  unsigned state = 12345;
  params[0] = 3.948746e7 * pow(s / 45.0, 3);
  params[1] = 5.0 / 3;
  for (int k = 0; k < s1; k++)
    for (int j = 0; j < s1; j++)
      for (int i = 0; i < s1; i++) {
        int n = i + s1 * (j + s1 * k);
        int ijk[3] = {i, j, k};
        for (int a = 0; a < 3; a++) {
          /* Nodes on a face of the cube stay on it. */
          int inside = ijk[a] > 0 && ijk[a] < s;
          double shift = jitter_value(&state);
          params[2 + a * nn + n] = h * (ijk[a] + (inside ? jitter * shift : 0));
        }
      }
}
