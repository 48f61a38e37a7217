/* adbench_data.c - deterministic inputs for the GMM and BA problems.
 *
 * splitmix64 from a fixed seed, so that every run and every machine times
 * the same numbers without downloading ADBench's data files. The ranges
 * keep the problems well posed: the GMM's log-diagonals near 0, and every
 * BA point in front of every camera (cameras about 10 units behind the
 * points, rotated by at most about 0.5 radians).
 */
#include "adbench.h"

#include <stdlib.h>

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double uniform(uint64_t *state, double lo, double hi) {
  return lo + (hi - lo) * ((splitmix64(state) >> 11) * 0x1.0p-53);
}

static double *uniforms(size_t n, double lo, double hi, uint64_t *state) {
  double *v = malloc(sizeof(double) * (n ? n : 1));
  for (size_t i = 0; i < n; i++)
    v[i] = uniform(state, lo, hi);
  return v;
}

void gmm_input_make(GmmInput *in, int d, int k, int n, uint64_t seed) {
  uint64_t s = seed;
  in->d = d, in->k = k, in->n = n;
  in->alphas = uniforms(k, -1, 1, &s);
  in->means = uniforms((size_t)k * d, 0, 1, &s);
  in->icf = uniforms((size_t)k * gmm_icf_size(d), -0.5, 0.5, &s);
  in->x = uniforms((size_t)n * d, 0, 1, &s);
  /* ADBench's prior: gamma = 1, m = 0. */
  in->gamma = 1;
  in->m = 0;
}

void gmm_input_free(GmmInput *in) {
  free(in->alphas), free(in->means), free(in->icf), free(in->x);
}

void ba_input_make(BaInput *in, int n, int m, int p, uint64_t seed) {
  uint64_t s = seed;
  in->n = n, in->m = m, in->p = p;
  in->cams = malloc(sizeof(double) * n * BA_NCAMPARAMS);
  for (int i = 0; i < n; i++) {
    double *cam = &in->cams[i * BA_NCAMPARAMS];
    for (int j = 0; j < 3; j++)
      cam[BA_ROT + j] = uniform(&s, -0.3, 0.3);
    cam[BA_C] = uniform(&s, -1, 1);
    cam[BA_C + 1] = uniform(&s, -1, 1);
    cam[BA_C + 2] = uniform(&s, -12, -8);
    cam[BA_F] = uniform(&s, 400, 800);
    cam[BA_X0] = uniform(&s, -10, 10);
    cam[BA_X0 + 1] = uniform(&s, -10, 10);
    cam[BA_RAD] = uniform(&s, -0.1, 0.1);
    cam[BA_RAD + 1] = uniform(&s, -0.01, 0.01);
  }
  in->X = uniforms((size_t)m * 3, -2, 2, &s);
  in->w = uniforms(p, 0.5, 1.5, &s);
  in->feats = uniforms((size_t)p * 2, -100, 100, &s);
  /* Observation j: camera j mod n, point j mod m, so that each point is
   * seen by several cameras whenever p > m. */
  in->obs = malloc(sizeof(int) * 2 * (p ? p : 1));
  for (int j = 0; j < p; j++) {
    in->obs[2 * j] = j % n;
    in->obs[2 * j + 1] = j % m;
  }
}

void ba_input_free(BaInput *in) {
  free(in->cams), free(in->X), free(in->w), free(in->feats), free(in->obs);
}
