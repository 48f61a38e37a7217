// Works (keep it working): scratch memory a function allocates, reads in its
// loops and frees before returning is freed by the gradient where its
// reverse sweep reaches the allocation (primal/DeferredFrees.h), so the
// reverse sweep reads the values back instead of taping them: ADBench's GMM
// frees Qdiags, whose entries every point and component multiply. Not
// deferred, and taped as before: a free on only some paths, an allocation
// freed in the loop that made it, a pointer that escapes into memory. Each
// gradient is checked against central differences, at -O0 and -O2 under
// valgrind (no leak, no double free, no read after a free).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// The loop reading q tapes q[i], q[(i+1) % n] and the index (24 bytes) where
// the free stays in the forward sweep; with it deferred, both copies read
// the values back (8 bytes: the index), since nothing the loop can reach
// writes q.
// CHECK-DAG: remark: gradient of 'scratch' caches 0 bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}} (where its run-time checks pass: 0 bytes per call, 8 bytes per iteration
// CHECK-DAG: remark: gradient of 'sometimes_freed' caches 0 bytes per call, 24 bytes per iteration of the loop at line {{[0-9]+}};
// CHECK-DAG: remark: gradient of 'escaping' caches 0 bytes per call, 24 bytes per iteration of the loop at line {{[0-9]+}};
#include <ad.h>
#include <stdlib.h>
#include "ad_test.h"

#define N 5

/* q = exp(x) kept in scratch memory, then sum_i q[i] * q[(i+1) % n]. */
double scratch(const double *x, int n) {
  double *q = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    q[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += q[i] * q[(i + 1) % n];
  free(q);
  return s;
}

/* The same, but the buffer is freed only when keep is 0, else handed back
 * through *kept: the free does not run on every path. */
double sometimes_freed(const double *x, int n, int keep, double **kept) {
  double *q = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    q[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += q[i] * q[(i + 1) % n];
  if (keep)
    *kept = q;
  else
    free(q);
  return s;
}

struct holder {
  double *p;
};

/* The pointer is stored into memory the caller sees before the free. */
double escaping(const double *x, int n, struct holder *h) {
  double *q = malloc(sizeof(double) * n);
  h->p = q;
  for (int i = 0; i < n; i++)
    q[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += q[i] * q[(i + 1) % n];
  free(q);
  return s;
}

/* A buffer per row, freed in the loop that allocated it. */
double per_row(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 3; r++) {
    double *q = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++)
      q[i] = exp(x[i] * (r + 1));
    for (int i = 0; i < n; i++)
      s += q[i] * q[(i + 1) % n];
    free(q);
  }
  return s;
}

void __ad_autodiff_void(void *, ...);

static double X[N] = {0.1, -0.4, 0.3, 0.7, -0.2};
static int Keep;
static double *Kept;
static struct holder H;

static double f_scratch(void) { return scratch(X, N); }
static double f_sometimes(void) {
  double r = sometimes_freed(X, N, Keep, &Kept);
  if (Keep)
    free(Kept);
  return r;
}
static double f_escaping(void) { return escaping(X, N, &H); }
static double f_per_row(void) { return per_row(X, N); }

static void check_fd(double (*f)(void), const double *dx) {
  for (int k = 0; k < N; k++) {
    double s = X[k], h = 1e-6;
    X[k] = s + h;
    double up = f();
    X[k] = s - h;
    double down = f();
    X[k] = s;
    CHECK_CLOSE(dx[k], (up - down) / (2 * h), 1e-7);
  }
}

int main(void) {
  double dx[N] = {0};
  __ad_autodiff_void((void *)scratch, X, dx, __ad_const, N);
  check_fd(f_scratch, dx);

  for (Keep = 0; Keep < 2; Keep++) {
    double dk[N] = {0};
    double *shadow_kept = NULL;
    __ad_autodiff_void((void *)sometimes_freed, X, dk, __ad_const, N,
                       __ad_const, Keep, &Kept, &shadow_kept);
    if (Keep) /* The gradient frees the shadow itself. */
      free(Kept);
    check_fd(f_sometimes, dk);
  }

  double de[N] = {0};
  struct holder dh = {0};
  __ad_autodiff_void((void *)escaping, X, de, __ad_const, N, &H, &dh);
  check_fd(f_escaping, de);

  double dr[N] = {0};
  __ad_autodiff_void((void *)per_row, X, dr, __ad_const, N);
  check_fd(f_per_row, dr);
  return ad_test_failures;
}
