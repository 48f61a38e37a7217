// Running extremes (primal/SelectReductions.cpp): a maximum or minimum kept
// by a select in a loop is read back from the chosen element's address after
// the loop, so its gradient records nothing per iteration. Checked against
// closed forms (the adjoint lands on the element chosen last: ties go to the
// first maximum with `>`, to the last with `>=`), against forward mode, and
// the cases where the loop chooses nothing (the start value, itself active,
// gets the adjoint) or runs no iteration. Also a softmax whose row maximum is
// such a reduction, in float, with rows of a loop around it, against central
// finite differences. An element computed in the loop and stored there, a
// new address each iteration (attention's scores), is read back from where
// it was stored. And loops the rewrite must leave alone: one that writes
// the array it scans, one that stores the running value in each iteration,
// one that stores each computed element over the one two iterations before.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// A strict maximum (or minimum, `>` or `<`) over elements a constant stride
// apart is found after the loop by a search for the first element equal to
// it (__ad_first_equal), so the loop keeps no address; with `>=` the last
// equal one wins, and the loop keeps the chosen address.
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SEARCH
// SEARCH-LABEL: define internal {{.*}}@max_score.ad.gradient(
// SEARCH:         call i64 @__ad_first_equal.double(
// SEARCH-LABEL: define internal {{.*}}@minval_ge.ad.gradient(
// SEARCH-NOT:     __ad_first_equal
// SEARCH:         select i1 {{.*}}, ptr
// SEARCH-NOT:     __ad_first_equal
// SEARCH-LABEL: define internal {{.*}}@maxval.ad.gradient(
// SEARCH-NOT:     select i1 {{.*}}, ptr
// SEARCH:         call i64 @__ad_first_equal.double(
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s \
// RUN:   --implicit-check-not="of 'max_then_scale' read" \
// RUN:   --implicit-check-not="of 'running_prefix' read" \
// RUN:   --implicit-check-not="of 'score_in_two_slots' read"
// CHECK-DAG: remark: derivatives of 'maxval' read 1 running extreme(s)
// CHECK-DAG: remark: gradient of 'maxval' caches {{[0-9]+}} bytes per call; recomputes
// CHECK-DAG: remark: derivatives of 'minval_ge' read 1 running extreme(s)
// CHECK-DAG: remark: derivatives of 'clamp_from' read 1 running extreme(s)
// CHECK-DAG: remark: derivatives of 'softmax_rows' read 1 running extreme(s)
// CHECK-DAG: remark: gradient of 'softmax_rows' runs the forward and reverse sweeps of each iteration of the 1 loop(s) at line {{[0-9]+}} back to back
// CHECK-DAG: remark: gradient of 'softmax_rows.ad.iteration' caches {{[0-9]+}} bytes per call, 4 bytes per iteration of the loop at line {{[0-9]+}}; recomputes
// CHECK-DAG: remark: derivatives of 'two_extremes' read 2 running extreme(s)
// CHECK-DAG: remark: derivatives of 'max_score' read 1 running extreme(s)
// CHECK-DAG: remark: gradient of 'max_score' caches {{[0-9]+}} bytes per call (where its run-time checks pass: {{[0-9]+}} bytes per call); recomputes
// CHECK-DAG: remark: gradient of 'max_then_scale' caches 0 bytes per call, {{[0-9]+}} bytes per iteration
// CHECK-DAG: remark: gradient of 'running_prefix' caches 0 bytes per call, {{[0-9]+}} bytes per iteration
#include <ad.h>
#include <string.h>
#include "ad_test.h"

void __ad_autodiff_void(void *, ...);

/* max x[i] * 3, first maximum on ties. */
double maxval(const double *x, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++)
    if (x[i] > m)
      m = x[i];
  return 3 * m;
}

/* min, last minimum on ties: m = x[i] <= m ? x[i] : m, as select(c, m, x)
 * once the comparison is inverted. */
float minval_ge(const float *x, int n) {
  float m = INFINITY;
  for (int i = 0; i < n; i++)
    m = m >= x[i] ? x[i] : m;
  return m * m;
}

/* The largest element above a floor that is itself an input. */
double clamp_from(double floor, const double *x, int n) {
  double m = floor;
  for (int i = 0; i < n; i++)
    if (x[i] > m)
      m = x[i];
  return m * floor;
}

/* Softmax of each row of x[rows][n], stabilized by the row maximum, then
 * the sum of w[i] * p[i]: the maximum cancels in exact arithmetic. */
void softmax_rows(float *restrict out, const float *restrict x,
                  const float *restrict w, int rows, int n) {
  for (int r = 0; r < rows; r++) {
    const float *xr = x + r * n;
    float m = -INFINITY;
    for (int i = 0; i < n; i++)
      m = xr[i] > m ? xr[i] : m;
    float s = 0, ws = 0;
    for (int i = 0; i < n; i++) {
      float e = expf(xr[i] - m);
      s += e;
      ws += w[i] * e;
    }
    out[r] = ws / s + 0.5f * m;
  }
}

/* Both extremes of one loop. */
double two_extremes(const double *x, int n) {
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; i++) {
    if (x[i] > hi)
      hi = x[i];
    if (x[i] < lo)
      lo = x[i];
  }
  return hi * hi - 2 * lo;
}

/* Not rewritten: the loop writes the array it scans. */
double max_then_scale(double *x, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++) {
    if (x[i] > m)
      m = x[i];
    x[i] *= 2;
  }
  return m;
}

/* Not rewritten: the running maximum is an output in every iteration. */
void running_prefix(double *restrict out, const double *restrict x, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++) {
    if (x[i] > m)
      m = x[i];
    out[i] = m * x[i];
  }
}

/* 3 max(x[i]^2 / 2), each score stored as it is computed. */
double max_score(double *restrict scores, const double *restrict x, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++) {
    double d = x[i] * x[i] * 0.5;
    if (d > m)
      m = d;
    scores[i] = d;
  }
  return 3 * m;
}

/* Not rewritten: the two slots hold the last two scores, not the largest. */
double score_in_two_slots(double *restrict slots, const double *restrict x,
                          int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++) {
    double d = x[i] * x[i] * 0.5;
    if (d > m)
      m = d;
    slots[i & 1] = d;
  }
  return 3 * m;
}

static double softmax_rows_sum(float *x, const float *w, int rows, int n) {
  float out[4];
  softmax_rows(out, x, w, rows, n);
  double s = 0;
  for (int r = 0; r < rows; r++)
    s += (r + 1) * out[r];
  return s;
}

int main(void) {
  /* maxval: ties at 2 and 4 (the first wins), and n = 0. */
  double x[6] = {0.5, -1, 3, 2.5, 3, -4}, dx[6] = {0};
  CHECK_CLOSE(__ad_autodiff((void *)maxval, x, dx, __ad_const, 6), 0, 0);
  for (int i = 0; i < 6; i++)
    CHECK_CLOSE(dx[i], i == 2 ? 3.0 : 0.0, 0);
  double tx[6] = {0, 0, 1, 0, 0, 0};
  CHECK_CLOSE(__ad_fwddiff((void *)maxval, x, tx, __ad_const, 6), 3.0, 0);
  memset(dx, 0, sizeof dx);
  __ad_autodiff((void *)maxval, x, dx, __ad_const, 0);
  for (int i = 0; i < 6; i++)
    CHECK_CLOSE(dx[i], 0, 0);

  /* minval_ge: minimum -2 at 1 and 3, the last one wins. */
  float xf[5] = {1, -2, 0.5f, -2, 4}, dxf[5] = {0};
  __ad_autodiff((void *)minval_ge, xf, dxf, __ad_const, 5);
  for (int i = 0; i < 5; i++)
    CHECK_CLOSE(dxf[i], i == 3 ? -4.0 : 0.0, 1e-6);

  /* clamp_from: an element above the floor, then none (the floor gets it). */
  struct d1 { double dfloor; };
  struct d1 __ad_autodiff_d1(void *, ...);
  double y[3] = {1, 5, 2}, dy[3] = {0};
  struct d1 g = __ad_autodiff_d1((void *)clamp_from, 4.0, y, dy, __ad_const, 3);
  CHECK_CLOSE(g.dfloor, 5.0, 1e-12); /* d(m * floor)/dfloor, m = y[1] */
  CHECK_CLOSE(dy[1], 4.0, 1e-12);
  CHECK_CLOSE(dy[0] + dy[2], 0, 0);
  memset(dy, 0, sizeof dy);
  g = __ad_autodiff_d1((void *)clamp_from, 9.0, y, dy, __ad_const, 3);
  CHECK_CLOSE(g.dfloor, 18.0, 1e-12); /* m = floor */
  CHECK_CLOSE(dy[0] + dy[1] + dy[2], 0, 0);

  /* two_extremes: hi = x[2], lo = x[5]. */
  memset(dx, 0, sizeof dx);
  __ad_autodiff((void *)two_extremes, x, dx, __ad_const, 6);
  for (int i = 0; i < 6; i++)
    CHECK_CLOSE(dx[i], i == 2 ? 6.0 : i == 5 ? -2.0 : 0.0, 1e-12);

  /* max_then_scale reads x before doubling it: the maximum is x[2]. */
  double z[4] = {1, 7, 3, 7}, dz[4] = {0};
  __ad_autodiff((void *)max_then_scale, z, dz, __ad_const, 4);
  for (int i = 0; i < 4; i++) /* z's shadow: 2 * seed of z (0) + d max */
    CHECK_CLOSE(dz[i], i == 1 ? 1.0 : 0.0, 0);
  CHECK_CLOSE(z[1], 14, 0);

  /* running_prefix: out[i] = max(x[0..i]) * x[i], seeds 1. */
  double p[5] = {2, 1, 4, 3, 5}, out[5], dout[5] = {1, 1, 1, 1, 1},
         dp[5] = {0};
  __ad_autodiff_void((void *)running_prefix, out, dout, p, dp, __ad_const, 5);
  /* prefix maxima 2 2 4 4 5: out0 = p0^2, out1 = p0 p1, out2 = p2^2,
   * out3 = p2 p3, out4 = p4^2. */
  double want[5] = {2 * 2 + 1, 2, 2 * 4 + 3, 4, 2 * 5};
  for (int i = 0; i < 5; i++)
    CHECK_CLOSE(dp[i], want[i], 1e-12);

  /* max_score and score_in_two_slots: the largest score is x[2]'s (-3), the
   * first of two (x[4]'s, which is stored over it in score_in_two_slots, is
   * as large). d(3 x^2 / 2)/dx = 3 x. */
  double q[5] = {1, 2.5, -3, -0.5, 3}, dq[5] = {0}, scores[5],
         dscores[5] = {0};
  __ad_autodiff((void *)max_score, scores, dscores, q, dq, __ad_const, 5);
  for (int i = 0; i < 5; i++)
    CHECK_CLOSE(dq[i], i == 2 ? -9.0 : 0.0, 1e-12);
  CHECK_CLOSE(scores[4], 4.5, 0);
  memset(dq, 0, sizeof dq);
  double slots[2] = {0}, dslots[2] = {0};
  __ad_autodiff((void *)score_in_two_slots, slots, dslots, q, dq, __ad_const,
                5);
  for (int i = 0; i < 5; i++)
    CHECK_CLOSE(dq[i], i == 2 ? -9.0 : 0.0, 1e-12);
  CHECK_CLOSE(slots[0], 4.5, 0);

  /* softmax_rows against central differences, float. */
  enum { R = 3, N = 37 };
  float xs[R * N], ws[N], outs[R], douts[R], dxs[R * N] = {0};
  for (int i = 0; i < R * N; i++)
    xs[i] = (float)ad_test_uniform(-3, 3);
  /* Clear maxima (the differences step over no kink), and a tie in row 1. */
  xs[3] = xs[2 * N + 30] = 3.5f;
  xs[N + 5] = xs[N + 20] = 4;
  for (int i = 0; i < N; i++)
    ws[i] = (float)ad_test_uniform(-1, 1);
  ws[20] = ws[5]; /* so that the tied elements differ only by the maximum */
  for (int r = 0; r < R; r++)
    douts[r] = r + 1;
  __ad_autodiff_void((void *)softmax_rows, outs, douts, xs, dxs, __ad_const,
                     ws, __ad_const, R, __ad_const, N);
  for (int r = 0; r < R; r++)
    CHECK_CLOSE(douts[r], 0, 0);
  for (int k = 0; k < R * N; k++) {
    if (k == N + 5 || k == N + 20)
      continue; /* the maximum is not differentiable at a tie */
    float saved = xs[k];
    xs[k] = saved + 1e-2f;
    double fp = softmax_rows_sum(xs, ws, R, N);
    xs[k] = saved - 1e-2f;
    double fm = softmax_rows_sum(xs, ws, R, N);
    xs[k] = saved;
    CHECK_CLOSE(dxs[k], (fp - fm) / 2e-2, 2e-3);
  }
  /* At the tie the first maximum (x[N + 5]) takes 0.5 * seed. */
  CHECK_TRUE(fabsf(dxs[N + 5] - dxs[N + 20] - 0.5f * 2) < 1e-4f);
  return ad_test_finish();
}
