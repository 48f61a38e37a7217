// OpenMP locks (omp_set_lock/omp_unset_lock, and the nest lock's) around a
// shared update: the reverse sweep would have to take the lock too, in the
// reverse order of the forward sweep's sections, which the plugin does for
// critical sections (tickets under a named lock) but not for locks the
// program passes around. Differentiating them is a compile-time error at
// the lock call, never a racy gradient (before the error, about half the
// 4-thread runs gave entries 0 or doubled).
// RUN: not %clang_omp -O0 %s -o %t.O0 -lm 2>&1 | FileCheck %s
// RUN: not %clang_omp -O2 %s -o %t.O2 -lm 2>&1 | FileCheck %s
// CHECK: error: cannot differentiate {{.*}}: OpenMP locks (omp_set_lock and the like) are not differentiated
#include "omp_test.h"
#include <ad.h>

#define N 40
#define REPEATS 60

static omp_lock_t lock;

static omp_nest_lock_t nest_lock;

static double nest_locked_sum(double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i];
    omp_set_nest_lock(&nest_lock);
    s += t * cos(x[i]);
    omp_unset_nest_lock(&nest_lock);
  }
  return s;
}

static double locked_sum(double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = sin(x[i]) * x[i];
    omp_set_lock(&lock);
    s += t * x[(i + 1) % n];
    omp_unset_lock(&lock);
  }
  return s;
}

int main(void) {
  double x[N];
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest_lock);
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  for (int r = 0; r < REPEATS; r++) {
    OMP_CHECK_SCALAR("lock", locked_sum, x, N, 1e-6);
    OMP_CHECK_SCALAR("nest lock", nest_locked_sum, x, N, 1e-6);
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest_lock);
  return ad_test_finish();
}
