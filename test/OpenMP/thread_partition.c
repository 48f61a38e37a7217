// Work partitioned by hand with omp_get_thread_num() and
// omp_get_num_threads(), in both modes: each thread sums a strided share
// into its own slot of a shared array, and the caller adds the slots after
// the region. The derivative must run with the primal's team: the region
// also records which threads ran it, and after __ad_autodiff and
// __ad_fwddiff every thread of OMP_NUM_THREADS must have been seen (the
// derivative of a parallel region is parallel).
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 130
#define MAXT 64

static int seen[MAXT];

/* sum_i x_i^2 cos(x_i) + (sum_i x_i)^2 through per-thread slots */
static double strided(double *x, int n) {
  double part[MAXT], lin[MAXT];
  int nt = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), k = omp_get_num_threads();
    seen[t] = 1;
#pragma omp single
    nt = k;
    part[t] = 0;
    lin[t] = 0;
    for (int i = t; i < n; i += k) {
      part[t] += x[i] * x[i] * cos(x[i]);
      lin[t] += x[i];
    }
  }
  double s = 0, l = 0;
  for (int t = 0; t < nt; t++) {
    s += part[t];
    l += lin[t];
  }
  return s + l * l;
}

static void check_seen(const char *what) {
  const char *env = getenv("OMP_NUM_THREADS");
  int want = env ? atoi(env) : omp_get_max_threads();
  for (int t = 0; t < MAXT; t++) {
    omp_check_close(what, t, seen[t], t < want, 0);
    seen[t] = 0;
  }
}

int main(void) {
  double x[N], dx[N] = {0}, v[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  omp_fill(v, N, -1, 1);
  __ad_autodiff_void((void *)strided, x, dx, N);
  check_seen("threads seen by __ad_autodiff");
  __ad_fwddiff((void *)strided, x, v, N);
  check_seen("threads seen by __ad_fwddiff");
  OMP_CHECK_SCALAR("thread-number partition", strided, x, N, 1e-6);
  return ad_test_finish();
}
