// Works (keep it working): what the forward sweep reserves on the tape
// stays within about twice what it records, and the tape's buffer is kept
// between calls. Inputs/tape_hook.c counts the reallocations (the program
// is linked with -Wl,--wrap=realloc) and the largest size asked for:
// - a rectangular nest, counted before it runs: one allocation of exactly
//   the bytes recorded; called again, none (the buffer is cached);
// - a loop whose bound is reloaded every iteration (cnt may alias n):
//   ScalarEvolution bounds it only by the int's range, and reserving for
//   2^31 - 1 iterations asked for 40 GiB; now nothing is reserved;
// - triangular nests (the inner count depends on the outer index: summed
//   over the outer iterations in closed form), alone and, as in ADBench's
//   GMM, inside two counted loops whose entry LLVM guards by a branch on
//   the counts (`k > 0`), with records in the block before the inner loop,
//   which runs only where the inner loop does; and GPT-2's causal mask, a
//   branch on t2 <= t: one allocation of exactly the bytes recorded
//   (Inputs/tape_hook.c finds the last byte written), and no growth;
// - a loop whose records are in a branch: at most 2x what it records.
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
// CHECK-DAG: gradient of 'tri_after' caches 0 bytes per call, 8 bytes per iteration of the loop at line
// CHECK-DAG: gradient of 'causal' caches 4 bytes per call, 8 bytes per iteration of the loop at line
// CHECK-DAG: gradient of 'gmm_like' caches 0 bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}}, 4 bytes per iteration of the loop at line {{[0-9]+}}, 8 bytes per iteration of the loop at line
#include <ad.h>
#include <stddef.h>
#include "ad_test.h"

size_t ad_hook_reallocs(void);
size_t ad_hook_largest_request(void);
void ad_hook_reset(void);
void ad_hook_forget_cache(void);
void ad_hook_fill(unsigned char pattern);
size_t ad_hook_high_water(unsigned char pattern);

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

/* The inner loop starts after the outer index: its guard skips it on the
 * last outer iteration. */
static double tri_after(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      s = sin(s + x[j]);
  return s;
}

/* ADBench's GMM objective in small: per point and component, scratch
 * written anew, then Q x by walking the lower triangle with a running
 * index (xc[i] is loaded, and recorded, before the inner loop). */
#define D 12
static double gmm_like(double *x, int n, int k, int d) {
  double xc[D], out[D], s = 0;
  for (int p = 0; p < n; p++)
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < d; i++) {
        xc[i] = sin(x[p + i]) - x[c];
        out[i] = xc[i];
      }
      int L = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++)
          out[j] += x[L++] * xc[i];
      for (int i = 0; i < d; i++)
        s += out[i] * out[i];
    }
  return s;
}
static double gmm_like_n(double *x, int n) { /* For finite differences. */
  return gmm_like(x, n - D, 5, D);
}
#define GMM_LIKE                                                               \
  __ad_autodiff((void *)gmm_like, x, dx, N - D, 5, D)

/* The causal mask of GPT-2's attention: a branch on t2 <= t, which changes
 * with both indices, is taken t + 1 times per outer iteration. Twice the
 * points, to record more than gmm_like. */
static double causal(double *x, int n) {
  double s = 0;
  for (int t = 0; t < 2 * n; t++)
    for (int t2 = 0; t2 < 2 * n; t2++)
      if (t2 <= t)
        s = sin(s + x[t2 / 2]);
      else
        s += x[t2 / 2];
  return s;
}

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

/* The bytes a gradient records: the last byte it writes into the tape's
 * buffer, kept from the previous call and filled with a pattern (twice, in
 * case the last byte recorded is the pattern). */
#define RECORDED(AUTODIFF, out)                                                \
  do {                                                                         \
    double dx[N] = {0};                                                        \
    size_t hw[2];                                                              \
    for (int t = 0; t < 2; t++) {                                              \
      ad_hook_fill(t ? 0x5a : 0xa5);                                           \
      AUTODIFF;                                                                \
      hw[t] = ad_hook_high_water(t ? 0x5a : 0xa5);                             \
    }                                                                          \
    *(out) = hw[0] > hw[1] ? hw[0] : hw[1];                                    \
  } while (0)

/* Nothing cached but smaller buffers (each of these records more than the
 * one before): one allocation, of exactly the bytes recorded, and no
 * growth. */
#define CHECK_EXACT(f, AUTODIFF)                                               \
  do {                                                                         \
    ad_hook_forget_cache();                                                    \
    ad_hook_reset();                                                           \
    CHECK_GRADIENT(f, AUTODIFF);                                               \
    CHECK_TRUE(ad_hook_reallocs() == 1);                                       \
    size_t reserved = ad_hook_largest_request(), recorded;                     \
    RECORDED(AUTODIFF, &recorded);                                             \
    CHECK_TRUE(reserved == recorded);                                          \
    CHECK_TRUE(ad_hook_reallocs() == 1);                                       \
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
  CHECK_EXACT(tri_after, GRADIENT(tri_after));
  CHECK_EXACT(tri, GRADIENT(tri));
  CHECK_EXACT(gmm_like_n, GMM_LIKE);
  CHECK_EXACT(causal, GRADIENT(causal));
  CHECK_RESERVED(branchy, GRADIENT(branchy), BRANCHY_BYTES(N));
  return ad_test_finish();
}
