// What a parallel region writes and its own reverse sweep needs again (a
// softmax row's quotients p[j] = e[j] / s, whose partial reads p[j]): where
// each iteration owns its row, nothing later in the iteration writes there,
// and the gradient's run-time check shows that nothing after the region
// does either (nor the region through its other pointers), the region's
// adjoint reads p[j] back from memory instead of recording it. Recorded as
// before, and right both ways: rows the iteration rescales afterwards
// (rescaled), and a write over the rows after the region that reads them
// too (ClobberAt: the check fails; reading back there would give the
// quotient the write left, a wrong gradient).
// RUN: %clang_omp -O2 %s -o %t.O2 -lm -Rpass=ad 2>&1 | FileCheck %s
// RUN: %clang_omp -O2 %s -c -o /dev/null -Rpass=ad 2>&1 | FileCheck %s --check-prefix=NOKEEP
// RUN: %omp_run %t.O2
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
//
// The checked copies' remarks are beside the loops they name.
// CHECK-DAG: remark: gradient of 'softmax_rows' checks at run time {{.*}}nothing overwrites what parallel regions wrote through 1 argument(s)
// CHECK-DAG: remark: gradient of 'rescaled' checks at run time {{.*}}nothing overwrites what parallel regions wrote through 1 argument(s)
#include "omp_test.h"
#include <ad.h>

#define R 6
#define C 9

/* Where a write after the region lands: one past the rows, or on them. */
static int Rows = R, Cols = C, ClobberAt = R * C;

/* p = exp(x) / sum(exp(x)) over a row of c, inlined into the regions. */
static inline void softmax_row(double *p, const double *x, int c) {
  double s = 0;
  for (int j = 0; j < c; j++) {
    p[j] = exp(x[j]);
    s += p[j];
  }
  // The rescaled rows' quotients are recorded per element, in both copies:
  // CHECK-DAG: remark: split derivative of 'rescaled.omp_outlined{{[^']*}}' caches {{[0-9]+}} bytes per call, 8 bytes per iteration of the loop at line [[#@LINE+1]], 8 bytes per iteration of the loop at line {{[0-9]+}}; recomputes
  for (int j = 0; j < c; j++)
    p[j] /= s;
}

static double softmax_rows(double *x, int n) {
  (void)n;
  int r = Rows, c = Cols, at = ClobberAt;
  double *p = malloc(sizeof(double) * (r * c + 1));
// The checked body records per row only, nothing per element:
// CHECK-DAG: remark: split derivative of 'softmax_rows.omp_outlined{{[^']*}}' caches {{[0-9]+}} bytes per call, 8 bytes per iteration of the loop at line [[@LINE+1]]; recomputes
#pragma omp parallel for
  for (int i = 0; i < r; i++)
    softmax_row(p + i * c, x + i * c, c);
  p[at] = p[at] * 0.5 + 0.25;
  double e = 0;
  for (int k = 0; k < r * c; k++)
    e += p[k] * sin(k + 1.0);
  free(p);
  return e;
}

/* The same rows, each rescaled afterwards. */
static double rescaled(double *x, int n) {
  (void)n;
  int r = Rows, c = Cols;
  double *p = malloc(sizeof(double) * r * c);
// Nor in the rescaled rows' checked copy (their quotients, above, are):
// NOKEEP-NOT: remark: split derivative of 'rescaled.omp_outlined{{[^']*}}' caches {{[0-9]+}} bytes per call, 8 bytes per iteration of the loop at line [[#@LINE+1]]; recomputes
#pragma omp parallel for
  for (int i = 0; i < r; i++) {
    softmax_row(p + i * c, x + i * c, c);
    for (int j = 0; j < c; j++)
      p[i * c + j] = p[i * c + j] * 0.5 + 0.125;
  }
  double e = 0;
  for (int k = 0; k < r * c; k++)
    e += p[k] * sin(k + 1.0);
  free(p);
  return e;
}

int main(void) {
  enum { N = R * C };
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("softmax rows", softmax_rows, x, N, 1e-6);
  ClobberAt = C + 1;
  OMP_CHECK_SCALAR("rows overwritten after the region", softmax_rows, x, N,
                   1e-6);
  OMP_CHECK_SCALAR("rescaled rows", rescaled, x, N, 1e-6);
  return ad_test_finish();
}
