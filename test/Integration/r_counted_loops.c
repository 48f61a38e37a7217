// Works (keep it working): loops the reverse sweep runs by counting its
// induction variables down (primal/CountedLoops.cpp) instead of reading the
// path from the tape: a matrix product with restrict pointers (its loads are
// repeated in the reverse sweep, nothing is taped per multiply-add), a
// triangular loop whose inner bound is the outer index (attention's causal
// mask), a packed lower triangle walked with a running index (ADBench's
// GMM), a loop that counts down with a step of 3, a loop with a guard and
// an if/else inside, and one whose trip count depends on the data (taped).
// Each gradient is checked against its closed form.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// At -O2 (the plugin sees the loops before they are unrolled) nothing is
// recorded for matvec, triangle or the guarded branchy loop; the
// data-dependent loop records per iteration. The packed triangle records
// nothing per row: the row's last inner index, which counting the inner
// loop down starts from, is an induction variable the expansion adds to the
// outer loop ({m-2,+,-1}), counted down in its turn, and the running index
// L is a stepped recurrence: the reverse sweep subtracts each row's step
// from the value after it (4 bytes per call: L's final value).
// CHECK-DAG: remark: gradient of 'packed_lower' caches 4 bytes per call; recomputes {{[0-9]+}} values in the reverse sweep; 2 of 2 loops reversed by counting
// A running index advanced by row lengths read from memory nothing writes
// is recovered the same way (jagged: nothing per row); where the lengths
// are overwritten (jagged_consumed), it is taped per row.
// CHECK-DAG: remark: gradient of 'jagged' caches 4 bytes per call; recomputes
// CHECK-DAG: remark: gradient of 'jagged_consumed' caches 0 bytes per call, {{[0-9]+}} bytes per iteration of the loop at line
// CHECK-DAG: remark: gradient of 'matvec' caches 0 bytes per call; recomputes {{[0-9]+}} values in the reverse sweep; 2 of 2 loops reversed by counting
// CHECK-DAG: remark: gradient of 'triangle' caches 0 bytes per call; recomputes {{[0-9]+}} values in the reverse sweep; 2 of 2 loops reversed by counting
// CHECK-DAG: remark: gradient of 'branchy' caches 0 bytes per call; recomputes {{[0-9]+}} values in the reverse sweep; 1 of 1 loops reversed by counting
// CHECK-DAG: remark: gradient of 'until' caches 0 bytes per call, 12 bytes per iteration of the loop at line {{[0-9]+}}; recomputes 0 values in the reverse sweep; 0 of 1 loops reversed by counting
#include <ad.h>
#include "ad_test.h"

/* y = W x: dW[o][i] += dy[o] x[i], dx[i] += sum_o dy[o] W[o][i]. */
void matvec(float *restrict y, const float *restrict W,
            const float *restrict x, int n, int m) {
  for (int o = 0; o < n; o++) {
    float s = 0.0f;
    for (int i = 0; i < m; i++)
      s += W[o * m + i] * x[i];
    y[o] = s;
  }
}

/* sum over i, j <= i of x[i] * x[j]: d/dx[k] = sum_{j<=k} x[j] + sum_{i>=k} x[i]. */
double triangle(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += x[i] * x[j];
  return s;
}

/* y[j] += sum over i < j of l[L] x[i], L counting the packed entries of a
 * strictly lower triangle column by column: dl[L] = dy[j] x[i], dx[i] =
 * sum over j > i of l[L] dy[j]. */
void packed_lower(double *restrict y, const double *restrict l,
                  const double *restrict x, int m) {
  int L = 0;
  for (int i = 0; i < m; i++)
    for (int j = i + 1; j < m; j++) {
      y[j] += l[L] * x[i];
      L++;
    }
}

/* Rows of lengths len[i] one after another in v: s = sum over i and j <
 * len[i] of v[L + j] x[i], L the row's start. */
double jagged(const double *v, const double *x, const int *len, int n) {
  double s = 0;
  int L = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < len[i]; j++)
      s += v[L + j] * x[i];
    L += len[i];
  }
  return s;
}

/* The same, but each length is cleared once used: the steps cannot be
 * read again. */
double jagged_consumed(const double *v, const double *x, int *len, int n) {
  double s = 0;
  int L = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < len[i]; j++)
      s += v[L + j] * x[i];
    L += len[i];
    len[i] = 0;
  }
  return s;
}

/* sum of x[i]^3 for i = n-1, n-4, ... down to 0 or more. */
double strided(const double *x, int n) {
  double s = 0;
  for (int i = n - 1; i >= 0; i -= 3)
    s += x[i] * x[i] * x[i];
  return s;
}

/* a guard and an if/else in the body: sum of (x>0 ? x*x : -x) * k. */
double branchy(const double *x, int n, int k) {
  double s = 0;
  if (k > 0)
    for (int i = 0; i < n; i++) {
      double v = x[i];
      if (v > 0)
        s += v * v * k;
      else
        s -= v * k;
    }
  return s;
}

/* the trip count depends on the data: taped. */
double until(double x) {
  double p = 1;
  while (p < 1000)
    p *= x;
  return p;
}

int main(void) {
  enum { N = 7, M = 5 };
  float W[N * M], x[M], y[N], dW[N * M] = {0}, dx[M] = {0}, dy[N];
  for (int k = 0; k < N * M; k++) W[k] = 0.1f * (k % 11) - 0.4f;
  for (int k = 0; k < M; k++) x[k] = 0.3f * k - 0.5f;
  for (int o = 0; o < N; o++) dy[o] = 1.0f + o;
  __ad_autodiff((void *)matvec, y, dy, W, dW, x, dx, N, M);
  for (int o = 0; o < N; o++) {
    for (int i = 0; i < M; i++)
      CHECK_CLOSE(dW[o * M + i], (1.0f + o) * x[i], 1e-6);
    CHECK_CLOSE(dy[o], 0.0, 0); /* the seed is consumed */
  }
  for (int i = 0; i < M; i++) {
    double want = 0;
    for (int o = 0; o < N; o++) want += (1.0 + o) * W[o * M + i];
    CHECK_CLOSE(dx[i], want, 1e-5);
  }

  double v[9], dv[9];
  for (int k = 0; k < 9; k++) v[k] = 0.25 * k - 1.1;
  for (int n = 0; n <= 9; n++) {
    for (int k = 0; k < 9; k++) dv[k] = 0;
    __ad_autodiff((void *)triangle, v, dv, n);
    for (int k = 0; k < 9; k++) {
      double want = 0;
      if (k < n) {
        for (int j = 0; j <= k; j++) want += v[j];
        for (int i = k; i < n; i++) want += v[i];
      }
      CHECK_CLOSE(dv[k], want, 1e-12);
    }
    for (int k = 0; k < 9; k++) dv[k] = 0;
    __ad_autodiff((void *)strided, v, dv, n);
    for (int k = 0; k < 9; k++) {
      int hit = k < n && (n - 1 - k) % 3 == 0;
      CHECK_CLOSE(dv[k], hit ? 3 * v[k] * v[k] : 0.0, 1e-12);
    }
    for (int kk = -1; kk <= 2; kk += 3) {
      for (int k = 0; k < 9; k++) dv[k] = 0;
      __ad_autodiff((void *)branchy, v, dv, n, kk);
      for (int k = 0; k < 9; k++) {
        double want = 0;
        if (kk > 0 && k < n) want = v[k] > 0 ? 2 * v[k] * kk : -kk;
        CHECK_CLOSE(dv[k], want, 1e-12);
      }
    }
  }
  for (int m = 0; m <= 6; m++) {
    double py[6] = {0}, pdy[6], pl[15], pdl[15] = {0}, px[6], pdx[6] = {0};
    for (int k = 0; k < 6; k++) pdy[k] = 0.5 + k, px[k] = 0.3 * k - 0.7;
    for (int k = 0; k < 15; k++) pl[k] = 0.1 * k - 0.6;
    __ad_autodiff((void *)packed_lower, py, pdy, pl, pdl, px, pdx, m);
    double want_dx[6] = {0}, want_dl[15] = {0};
    int L = 0;
    for (int i = 0; i < m; i++)
      for (int j = i + 1; j < m; j++, L++) {
        want_dl[L] = (0.5 + j) * px[i];
        want_dx[i] += pl[L] * (0.5 + j);
      }
    for (int k = 0; k < 15; k++) CHECK_CLOSE(pdl[k], want_dl[k], 1e-12);
    for (int k = 0; k < 6; k++) CHECK_CLOSE(pdx[k], want_dx[k], 1e-12);
  }
  {
    enum { R = 5 };
    const int lens[R] = {2, 0, 3, 1, 4};
    int len[R];
    double jv[10], djv[10] = {0}, jx[R], djx[R] = {0};
    for (int k = 0; k < 10; k++) jv[k] = 0.2 * k - 0.9;
    for (int k = 0; k < R; k++) jx[k] = 0.5 - 0.3 * k;
    double want_v[10] = {0}, want_x[R] = {0};
    for (int i = 0, L = 0; i < R; L += lens[i], i++)
      for (int j = 0; j < lens[i]; j++) {
        want_v[L + j] = jx[i];
        want_x[i] += jv[L + j];
      }
    __ad_autodiff((void *)jagged, jv, djv, jx, djx, __ad_const, lens, R);
    for (int k = 0; k < 10; k++) CHECK_CLOSE(djv[k], want_v[k], 1e-12);
    for (int k = 0; k < R; k++) CHECK_CLOSE(djx[k], want_x[k], 1e-12);
    for (int k = 0; k < 10; k++) djv[k] = 0;
    for (int k = 0; k < R; k++) djx[k] = 0, len[k] = lens[k];
    __ad_autodiff((void *)jagged_consumed, jv, djv, jx, djx, __ad_const, len,
                  R);
    for (int k = 0; k < 10; k++) CHECK_CLOSE(djv[k], want_v[k], 1e-12);
    for (int k = 0; k < R; k++) CHECK_CLOSE(djx[k], want_x[k], 1e-12);
  }
  /* p = x^k with k the first power reaching 1000: 1.5^18 = 1477.9 */
  CHECK_CLOSE(__ad_autodiff((void *)until, 1.5), 18 * 1477.8918800354004 / 1.5, 1e-9);
  return ad_test_finish();
}
