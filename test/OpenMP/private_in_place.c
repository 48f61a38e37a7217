// Weights every iteration reads (w[j] for all j) get a private copy of
// their shadow per thread, summed after the reverse sweep; thread 0 adds
// into the shadow itself, where nothing another thread adds to during the
// sweep can reach that range: the region's other shadowed pointers are
// checked apart from it before the fork. Here v = x + Offset is read row
// by row (each iteration owns v[i], plain adds from every thread): apart
// from w's range [0, K) (Offset = K), thread 0 adds in place; overlapping
// it (Offset = 1), thread 0 takes a buffer like the others, and the race
// check (race.test) would catch it adding in place while another thread
// adds to v[i]. Both modes at 1, 2 and 4 threads.
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
#include "omp_test.h"
#include <ad.h>

#define K 6
#define M 10

static int Offset = K, Rows = M, Width = K;

static double weighted_rows(double *x, int n) {
  (void)n;
  const double *w = x, *v = x + Offset;
  int m = Rows, k = Width;
  double y[M];
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < k; j++)
      s += w[j] * v[i] * (j + 1);
    y[i] = sin(s);
  }
  double e = 0;
  for (int i = 0; i < m; i++)
    e += y[i] * (i % 3 + 1);
  return e;
}

int main(void) {
  enum { N = K + M };
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("weights apart from the rows", weighted_rows, x, N, 1e-6);
  Offset = 1;
  OMP_CHECK_SCALAR("weights overlapping the rows", weighted_rows, x, N, 1e-6);
  return ad_test_finish();
}
