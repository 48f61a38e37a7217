// Works (keep it working): what the forward sweep reserves on the tape
// stays within about twice what it records, and the tape's buffer is kept
// between calls. Inputs/tape_hook.c counts the reallocations (the program
// is linked with -Wl,--wrap=realloc) and the largest size asked for:
// - a rectangular nest, counted before it runs: one allocation of exactly
//   the bytes recorded; called again, none (the buffer is cached);
// - a loop whose bound is reloaded every iteration (cnt may alias n):
//   ScalarEvolution bounds it only by the int's range, and reserving for
//   2^31 - 1 iterations asked for 40 GiB; now nothing is reserved;
// - a triangular nest (the inner count depends on the outer index), and a
//   loop whose records are in a branch: the pushes grow the tape.
// The per-iteration record sizes below are upper bounds of what the
// remarks report (checked at -O2); every gradient is checked against
// finite differences.
// RUN: %clang_ad -O0 %s %S/Inputs/tape_hook.c -Wl,--wrap=realloc -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s %S/Inputs/tape_hook.c -Wl,--wrap=realloc -o %t.O2 -lm -Rpass=ad 2>&1 | FileCheck %s
// RUN: %run %t.O2
// CHECK-DAG: gradient of 'rect' caches 0 bytes per call, 80 bytes per iteration of the loop at line
// CHECK-DAG: gradient of 'reloaded' caches 0 bytes per call, 20 bytes per iteration of the loop at line
// CHECK-DAG: gradient of 'tri' caches 0 bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}}; recomputes
// CHECK-DAG: gradient of 'branchy' caches 0 bytes per call, 8 bytes per iteration of the loop at line
#include <ad.h>
#include <stddef.h>
#include "ad_test.h"

size_t ad_hook_reallocs(void);
size_t ad_hook_largest_request(void);
void ad_hook_reset(void);

#define N 300

/* 10 n iterations of 8 bytes (-O0), or n of 80 (-O2, unrolled). */
static double rect(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 10; j++)
      s = sin(s + x[i]);
  return s;
}
#define RECT_BYTES(n) (80 * (size_t)(n))

__attribute__((noinline)) static double reloaded(double *x, const int *n,
                                                 int *cnt) {
  double s = 0;
  for (int i = 0; i < *n; i++) {
    s = sin(s + x[i]);
    cnt[i] += 1;
  }
  return s;
}
static int Cnt[N];
static double reloaded_n(double *x, int n) { return reloaded(x, &n, Cnt); }
#define RELOADED_BYTES(n) (20 * (size_t)(n))

static double tri(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s = sin(s + x[j]);
  return s;
}
#define TRI_BYTES(n) (8 * (size_t)(n) * ((n) + 1) / 2)

static double branchy(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0.9)
      s = sin(s + x[i]);
    else
      s += x[i];
  return s;
}
#define BRANCHY_BYTES(n) (8 * (size_t)(n))

/* The gradient of f (taken by AUTODIFF, into dx) against central
 * differences at a few indices. */
#define CHECK_GRADIENT(f, AUTODIFF)                                            \
  do {                                                                         \
    double dx[N] = {0};                                                        \
    AUTODIFF;                                                                  \
    for (int i = 0; i < N; i += 37)                                            \
      CHECK_CLOSE(dx[i], ad_fd_array(f, x, N, i), 1e-5);                       \
  } while (0)
#define GRADIENT(f) __ad_autodiff((void *)f, x, dx, N)

/* At most twice the bytes recorded, and the 4096 bytes of a first growth. */
#define CHECK_RESERVED(f, AUTODIFF, recorded)                                  \
  do {                                                                         \
    ad_hook_reset();                                                           \
    CHECK_GRADIENT(f, AUTODIFF);                                               \
    CHECK_TRUE(ad_hook_largest_request() <= 2 * (recorded) + 4096);            \
  } while (0)

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-1, 1);

  /* First, with nothing cached: exactly one allocation, of the bytes the
   * nest records; then none. */
  ad_hook_reset();
  CHECK_GRADIENT(rect, GRADIENT(rect));
  CHECK_TRUE(ad_hook_reallocs() == 1);
  CHECK_TRUE(ad_hook_largest_request() == RECT_BYTES(N));
  ad_hook_reset();
  CHECK_GRADIENT(rect, GRADIENT(rect));
  CHECK_TRUE(ad_hook_reallocs() == 0);

  int n = N;
  CHECK_RESERVED(reloaded_n,
                 __ad_autodiff((void *)reloaded, x, dx, __ad_const, &n,
                               __ad_const, Cnt),
                 RELOADED_BYTES(N));
  CHECK_RESERVED(tri, GRADIENT(tri), TRI_BYTES(N));
  CHECK_RESERVED(branchy, GRADIENT(branchy), BRANCHY_BYTES(N));
  return ad_test_finish();
}
