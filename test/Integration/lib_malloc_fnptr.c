// malloc (and free) called through function pointers that the module fixes
// at compile time: a local variable, a static variable nothing writes, a
// field of a static const table of operations, a select or a phi whose every
// choice is malloc, and a select between two allocators that share one row
// (aligned_alloc and memalign take the same arguments) are all allocations
// whose shadows the derivative allocates and frees. The canonical primal
// calls a pointer fixed at compile time directly; a select or phi of
// allocators with one row is that row. At -O0 nothing of
// this is folded before the plugin runs. Pointers that are not fixed (a
// parameter, a global another file may change) are errors:
// test/Diagnostics/malloc_fnptr.c.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>

#define N 7
typedef void *(*alloc_fn)(size_t);
typedef void (*release_fn)(void *);

static alloc_fn g_alloc = malloc; /* static, never written */
struct ops {
  alloc_fn alloc;
  release_fn release;
};
static const struct ops OPS = {malloc, free};

/* The allocation escapes into a helper the optimizer keeps, so the buffer
   and its shadow are really used. */
__attribute__((noinline)) static double weigh(const double *t, const double *x,
                                              int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  return s;
}

/* each: sum x_i^3, gradient 3 x_i^2 */
double vialocal(const double *x, int n) {
  alloc_fn a = malloc;
  release_fn r = free;
  double *t = a(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = weigh(t, x, n);
  r(t);
  return s;
}
double viastatic(const double *x, int n) {
  double *t = g_alloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = weigh(t, x, n);
  free(t);
  return s;
}
double viatable(const double *x, int n) {
  double *t = OPS.alloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = weigh(t, x, n);
  OPS.release(t);
  return s;
}
double viaselect(const double *x, int n, int k) {
  alloc_fn a = k > 0 ? malloc : (alloc_fn)malloc;
  double *t = a(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = weigh(t, x, n);
  free(t);
  return s;
}
/* A phi of pointers that are all malloc. */
double viaphi(const double *x, int n) {
  alloc_fn a = malloc;
  for (int i = 0; i < n; i++)
    a = i % 2 ? malloc : g_alloc;
  double *t = a(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = weigh(t, x, n);
  free(t);
  return s;
}
/* Two different allocators with one row: aligned_alloc(align, size) and
   memalign(align, size). */
typedef void *(*aligned_fn)(size_t, size_t);
void *memalign(size_t, size_t);
double viatwo(const double *x, int n, int k) {
  aligned_fn a = k > 0 ? aligned_alloc : memalign;
  double *t = a(64, 64 * ((n * sizeof(double) + 63) / 64));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  double s = weigh(t, x, n);
  free(t);
  return s;
}

#define CHECK_GRADIENT(call_rev, call_fwd)                                     \
  do {                                                                         \
    double dx[N] = {0}, tx[N] = {0};                                           \
    call_rev;                                                                  \
    for (int i = 0; i < N; i++)                                                \
      CHECK_CLOSE(dx[i], 3 * x[i] * x[i], 1e-12);                              \
    for (int i = 0; i < N; i += 3) {                                           \
      tx[i] = 1;                                                               \
      CHECK_CLOSE(call_fwd, dx[i], 1e-12);                                     \
      tx[i] = 0;                                                               \
    }                                                                          \
  } while (0)

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = ad_test_uniform(-2, 2);
  CHECK_GRADIENT(__ad_autodiff((void *)vialocal, x, dx, N),
                 __ad_fwddiff((void *)vialocal, x, tx, N));
  CHECK_GRADIENT(__ad_autodiff((void *)viastatic, x, dx, N),
                 __ad_fwddiff((void *)viastatic, x, tx, N));
  CHECK_GRADIENT(__ad_autodiff((void *)viatable, x, dx, N),
                 __ad_fwddiff((void *)viatable, x, tx, N));
  CHECK_GRADIENT(__ad_autodiff((void *)viaselect, x, dx, N, 1),
                 __ad_fwddiff((void *)viaselect, x, tx, N, 1));
  CHECK_GRADIENT(__ad_autodiff((void *)viaphi, x, dx, N),
                 __ad_fwddiff((void *)viaphi, x, tx, N));
  for (int k = 0; k < 2; k++)
    CHECK_GRADIENT(__ad_autodiff((void *)viatwo, x, dx, N, k),
                   __ad_fwddiff((void *)viatwo, x, tx, N, k));
  return ad_test_finish();
}
