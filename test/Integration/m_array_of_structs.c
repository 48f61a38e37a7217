// Reverse mode: an array of structs (doubles plus an int field) with a shadow array of structs.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 5

struct Particle {
  double x, y;
  int id; /* odd ids carry charge -1, even +1 */
  double m;
};

static double charge(const struct Particle *p) { return (p->id % 2) ? -1.0 : 1.0; }

/* sum_i m_i |r_i|^2 / 2 + sum_{i<j} q_i q_j / |r_i - r_j| */
static double energy(const struct Particle *ps, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * ps[i].m * (ps[i].x * ps[i].x + ps[i].y * ps[i].y);
    for (int j = i + 1; j < n; j++) {
      double dx = ps[i].x - ps[j].x, dy = ps[i].y - ps[j].y;
      e += charge(&ps[i]) * charge(&ps[j]) / sqrt(dx * dx + dy * dy);
    }
  }
  return e;
}

static struct Particle PS[N];

/* energy(PS) as a function of the one field that ad_fd_array perturbs in place. */
static double energy_at(double *field, int n) {
  (void)field;
  (void)n;
  return energy(PS, N);
}
static double fd(double *field) { return ad_fd_array(energy_at, field, 1, 0); }

int main(void) {
  struct Particle dps[N];
  for (int i = 0; i < N; i++) {
    /* well-separated points on a ring, jittered: no coincident pairs */
    double t = 2 * M_PI * i / N;
    PS[i].x = 2 * cos(t) + ad_test_uniform(-0.2, 0.2);
    PS[i].y = 2 * sin(t) + ad_test_uniform(-0.2, 0.2);
    PS[i].id = 100 + i;
    PS[i].m = ad_test_uniform(0.5, 2);
    dps[i].x = dps[i].y = dps[i].m = 0;
    dps[i].id = PS[i].id;
  }

  __ad_autodiff((void *)energy, PS, dps, N);

  for (int i = 0; i < N; i++) {
    double gx = PS[i].m * PS[i].x, gy = PS[i].m * PS[i].y;
    for (int j = 0; j < N; j++) {
      if (j == i)
        continue;
      double dx = PS[i].x - PS[j].x, dy = PS[i].y - PS[j].y;
      double r = sqrt(dx * dx + dy * dy);
      double qq = charge(&PS[i]) * charge(&PS[j]);
      gx -= qq * dx / (r * r * r);
      gy -= qq * dy / (r * r * r);
    }
    CHECK_CLOSE(dps[i].x, gx, 1e-10);
    CHECK_CLOSE(dps[i].y, gy, 1e-10);
    CHECK_CLOSE(dps[i].m, 0.5 * (PS[i].x * PS[i].x + PS[i].y * PS[i].y), 1e-10);
    CHECK_CLOSE(dps[i].x, fd(&PS[i].x), 1e-5);
    CHECK_CLOSE(dps[i].y, fd(&PS[i].y), 1e-5);
    CHECK_CLOSE(dps[i].m, fd(&PS[i].m), 1e-5);
  }

  /* A sub-range: particles 1..3 only; outside it the shadow stays zero. */
  struct Particle dsub[N];
  for (int i = 0; i < N; i++) {
    dsub[i] = dps[i];
    dsub[i].x = dsub[i].y = dsub[i].m = 0;
  }
  __ad_autodiff((void *)energy, PS + 1, dsub + 1, 3);
  CHECK_TRUE(dsub[0].x == 0 && dsub[0].y == 0 && dsub[0].m == 0);
  CHECK_TRUE(dsub[4].x == 0 && dsub[4].y == 0 && dsub[4].m == 0);
  for (int i = 1; i < 4; i++)
    CHECK_CLOSE(dsub[i].m, 0.5 * (PS[i].x * PS[i].x + PS[i].y * PS[i].y), 1e-10);
  /* the sum of pair forces within the sub-system cancels: total gradient = sum m r */
  double sx = 0, mx = 0;
  for (int i = 1; i < 4; i++) {
    sx += dsub[i].x;
    mx += PS[i].m * PS[i].x;
  }
  CHECK_CLOSE(sx, mx, 1e-10);

  return ad_test_finish();
}
