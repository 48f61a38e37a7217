// Regression: element-by-element copy loops between double arrays become
// llvm.memcpy at -O1 and up (loop-idiom recognition; the memcpy keeps the
// `double` TBAA tag). When a function has no other typed access to the buffers
// -- a rotate through a heap temporary, or the merge step of a merge sort --
// the plugin then reported "cannot tell which bytes of this memory copy hold
// floating-point data" for the user's final memcpy, although the same code
// differentiates fine at -O0.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <stdlib.h>
#include <string.h>

/* rotate left by m through a heap buffer */
static void rotate(double *a, int m, int n) {
  double *t = malloc(n * sizeof *t);
  int k = 0;
  for (int j = m; j < n; j++) t[k++] = a[j];
  for (int j = 0; j < m; j++) t[k++] = a[j];
  memcpy(a, t, n * sizeof *t);
  free(t);
}

/* top-down merge sort with a heap temporary per merge */
static void merge(double *a, int lo, int mid, int hi) {
  double *t = malloc((hi - lo) * sizeof *t);
  int i = lo, j = mid, k = 0;
  while (i < mid && j < hi) t[k++] = (a[i] <= a[j]) ? a[i++] : a[j++];
  while (i < mid) t[k++] = a[i++];
  while (j < hi) t[k++] = a[j++];
  memcpy(a + lo, t, (hi - lo) * sizeof *t);
  free(t);
}
static void msort(double *a, int lo, int hi) {
  if (hi - lo < 2) return;
  int mid = (lo + hi) / 2;
  msort(a, lo, mid);
  msort(a, mid, hi);
  merge(a, lo, mid, hi);
}
/* sum_i (i + 1) * sorted(x^2)_i */
static double sorted_energy(double *a, int n) {
  for (int i = 0; i < n; i++) a[i] = a[i] * a[i];
  msort(a, 0, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * a[i];
  return s;
}
static double se_fd(double *x, int n) {
  double t[32];
  memcpy(t, x, n * sizeof *t);
  return sorted_energy(t, n);
}

#define N 23
int main(void) {
  double a[6] = {1, 4, 5, 2, 3, 6}, da[6] = {1, 2, 3, 4, 5, 6};
  __ad_autodiff((void *)rotate, a, da, 2, 6);
  double wa[6] = {5, 2, 3, 6, 1, 4}, wd[6] = {5, 6, 1, 2, 3, 4};
  for (int i = 0; i < 6; i++) {
    CHECK_CLOSE(a[i], wa[i], 0);
    CHECK_CLOSE(da[i], wd[i], 0);
  }

  double x[N], s[N], ds[N] = {0};
  for (int i = 0; i < N; i++) s[i] = x[i] = ad_test_uniform(-2, 2);
  __ad_autodiff((void *)sorted_energy, s, ds, N);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += x[j] * x[j] < x[i] * x[i];
    CHECK_CLOSE(ds[i], 2 * x[i] * (rank + 1), 1e-12);
    CHECK_CLOSE(ds[i], ad_fd_array(se_fd, x, N, i), 1e-6);
  }
  for (int i = 1; i < N; i++) CHECK_TRUE(s[i - 1] <= s[i]);
  return ad_test_finish();
}
