// Reverse mode: double **rows with a shadow array of shadow rows; f also permutes the row pointers.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>

#define NR 4 /* a ragged triangle: row r has r + 1 entries */

/* sum_r (sum_c rows[r][c])^2 + rows[0][0] * rows[nr-1][nr-1] */
static double tri(double **rows, int nr) {
  double s = 0;
  for (int r = 0; r < nr; r++) {
    double t = 0;
    for (int c = 0; c <= r; c++)
      t += rows[r][c];
    s += t * t;
  }
  return s + rows[0][0] * rows[nr - 1][nr - 1];
}

/* Swap the first and last row pointers, then sum_r (r+1) rows[r][0]^2. */
static double swapped(double **rows, int nr) {
  double *tmp = rows[0];
  rows[0] = rows[nr - 1];
  rows[nr - 1] = tmp;
  double s = 0;
  for (int r = 0; r < nr; r++)
    s += (r + 1) * rows[r][0] * rows[r][0];
  return s;
}

static double *R[NR];
static double tri_at(double *v, int n) { (void)v; (void)n; return tri(R, NR); }

int main(void) {
  double *D[NR];
  for (int r = 0; r < NR; r++) {
    R[r] = malloc((r + 1) * sizeof(double));
    D[r] = calloc(r + 1, sizeof(double));
    for (int c = 0; c <= r; c++)
      R[r][c] = ad_test_uniform(-1, 1);
  }

  double *rows[NR], *drows[NR];
  for (int r = 0; r < NR; r++) {
    rows[r] = R[r];
    drows[r] = D[r];
  }
  __ad_autodiff((void *)tri, rows, drows, NR);
  for (int r = 0; r < NR; r++) {
    double t = 0;
    for (int c = 0; c <= r; c++) t += R[r][c];
    for (int c = 0; c <= r; c++) {
      double want = 2 * t;
      if (r == 0 && c == 0) want += R[NR - 1][NR - 1];
      if (r == NR - 1 && c == NR - 1) want += R[0][0];
      CHECK_CLOSE(D[r][c], want, 1e-10);
      CHECK_CLOSE(D[r][c], ad_fd_array(tri_at, &R[r][c], 1, 0), 1e-5);
    }
  }
  for (int r = 0; r < NR; r++)
    CHECK_TRUE(rows[r] == R[r] && drows[r] == D[r]);

  /* swapped: the buffers R[0] and R[NR-1] trade weights 1 and NR. */
  for (int r = 0; r < NR; r++)
    for (int c = 0; c <= r; c++) D[r][c] = 0;
  __ad_autodiff((void *)swapped, rows, drows, NR);
  CHECK_TRUE(rows[0] == R[NR - 1] && rows[NR - 1] == R[0]); /* side effect, once */
  for (int r = 0; r < NR; r++) {
    int pos = r == 0 ? NR - 1 : r == NR - 1 ? 0 : r;
    CHECK_CLOSE(D[r][0], 2.0 * (pos + 1) * R[r][0], 1e-10);
    for (int c = 1; c <= r; c++)
      CHECK_TRUE(D[r][c] == 0.0);
  }

  for (int r = 0; r < NR; r++) {
    free(R[r]);
    free(D[r]);
  }
  return ad_test_finish();
}
