// Layers that each read one slice of an activation buffer in a parallel
// region and write the next (the shape of a GPT-2 forward whose layers are
// inlined), in both modes. Alias analysis cannot tell the slices apart; the
// gradient's run-time checks show that nothing written later overlaps what
// a region read, and the regions' derivatives then read their inputs back
// instead of taping them (the remark counts the region arguments). A layout
// where a later write does overlap (ScrubN: the buffer's first slice is
// cleared after the last layer) fails the checks, and the inputs are taped:
// the gradient is right both ways. Reading them back there would give
// layer 0's weights a gradient computed from zeros.
// RUN: %clang_omp -O2 %s -o %t.O2 -lm -Rpass=ad 2>&1 | FileCheck %s
// RUN: %omp_run %t.O2
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// CHECK: remark: gradient of 'layers' checks at run time ({{[0-9]+}} conditions){{.*}}nothing overwrites what parallel regions read through {{[1-9][0-9]*}} argument(s)
#include "omp_test.h"
#include <ad.h>

#define N 24
#define L 3

/* Where the layers start in the buffer, and what is cleared after them. */
static int Base = N, ScrubAt = 0, ScrubN = 0;
static double Acts[(L + 2) * N];

/* x: the first layer's input (N), then L weight matrices (N x N each). */
static double layers(double *x, int n) {
  (void)n;
  double *acts = Acts;
  int scrub_at = ScrubAt, scrub_n = ScrubN;
  const double *w = x + N;
  for (int i = 0; i < N; i++)
    acts[Base + i] = x[i];
  for (int l = 0; l < L; l++) {
    const double *in = acts + Base + l * N;
    double *out = acts + Base + (l + 1) * N;
    const double *wl = w + l * N * N;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int j = 0; j < N; j++)
        s += wl[i * N + j] * in[j];
      out[i] = tanh(s);
    }
  }
  const double *last = acts + Base + L * N;
  double e = 0;
  for (int i = 0; i < N; i++)
    e += last[i] * last[i];
  for (int i = 0; i < scrub_n; i++)
    acts[scrub_at + i] = 0;
  return e;
}

int main(void) {
  enum { NX = N + L * N * N };
  static double x[NX];
  omp_check_team_size();
  omp_fill(x, NX, -0.5, 0.5);
  OMP_CHECK_SCALAR("disjoint slices", layers, x, NX, 1e-6);
  ScrubAt = Base;
  ScrubN = N;
  OMP_CHECK_SCALAR("first slice cleared at the end", layers, x, NX, 1e-6);
  return ad_test_finish();
}
