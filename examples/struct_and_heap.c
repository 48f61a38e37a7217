/* struct_and_heap.c - reverse mode through a struct that mixes int, double
 * and pointer fields, with a temporary buffer from malloc inside.
 *
 * A chain of n masses joined by springs hangs in gravity; its energy is
 *   E = k/2 sum_i (y[i+1] - y[i] - rest)^2  +  m g sum_i y[i].
 * One reverse-mode call gives dE/dk, dE/dm and dE/dy[i] for every i.
 *
 * Build and run (make demo does this):
 *   clang-22 -O2 -fpass-plugin=build/ADPlugin.so -Iinclude \
 *     examples/struct_and_heap.c -lm && ./a.out
 */
#include <ad.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 6

struct Chain {
  int n;        /* number of masses: an integer, never differentiated */
  double k;     /* spring stiffness */
  double *y;    /* heights of the masses (n doubles) */
  double m;     /* mass of each body */
};

static double energy(const struct Chain *c) {
  /* The stretch of each spring, in a temporary heap buffer. */
  double *stretch = malloc((c->n - 1) * sizeof(double));
  for (int i = 0; i + 1 < c->n; ++i)
    stretch[i] = c->y[i + 1] - c->y[i] - 1.0;
  double e = 0.0;
  for (int i = 0; i + 1 < c->n; ++i)
    e += 0.5 * c->k * stretch[i] * stretch[i];
  for (int i = 0; i < c->n; ++i)
    e += c->m * 9.81 * c->y[i];
  free(stretch);
  return e;
}

/* Central difference of energy(c) with respect to the double *v inside c. */
static double central_difference(struct Chain *c, double *v) {
  double saved = *v, h = 1e-6 * fmax(1.0, fabs(saved));
  *v = saved + h;
  double up = energy(c);
  *v = saved - h;
  double down = energy(c);
  *v = saved;
  return (up - down) / (2 * h);
}

static int failures = 0;

static void compare(const char *name, double ad, double fd) {
  double diff = ad - fd;
  int bad = fabs(diff) > 1e-5 * fmax(1.0, fabs(fd));
  failures += bad;
  printf("%-8s %16.10f %16.10f %12.2e%s\n", name, ad, fd, diff,
         bad ? "  MISMATCH" : "");
}

int main(void) {
  double y[N] = {0.0, 1.3, 2.1, 3.4, 4.0, 5.6};
  struct Chain c = {N, 40.0, y, 0.7};

  /* The shadow has the same shape as the struct: the plugin adds dE/dk and
   * dE/dm into its double fields, and follows its pointer field to dy, the
   * shadow of y. Everything starts at zero because adjoints accumulate. */
  double dy[N] = {0};
  struct Chain dc = {N, 0.0, dy, 0.0};

  /* A pointer argument defaults to __ad_dup: value, then shadow. */
  __ad_autodiff((void *)energy, &c, &dc);

  printf("E = %.10g\n", energy(&c));
  printf("%-8s %16s %16s %12s\n", "input", "AD gradient", "finite diff",
         "difference");
  compare("k", dc.k, central_difference(&c, &c.k));
  compare("m", dc.m, central_difference(&c, &c.m));
  for (int i = 0; i < N; ++i) {
    char name[8];
    snprintf(name, sizeof name, "y[%d]", i);
    compare(name, dy[i], central_difference(&c, &y[i]));
  }
  printf(failures ? "FAILED: %d mismatches\n" : "all %d inputs match\n",
         failures ? failures : N + 2);
  return failures != 0;
}
