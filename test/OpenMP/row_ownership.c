// Rows that belong to one iteration of a collapse(2) worksharing loop (a
// layer's input row per (b, t)): every element of x's shadow gets its
// adjoint from the one thread that ran the row, so the reverse sweep adds
// into the shadow itself, with no private copy per thread and no atomics.
// Rows that overlap (each also reads the first element of the next) are
// shared by two iterations, and their adjoints go through per-thread
// copies. Scores laid out [b][h][t][t2], t2 <= t, filled in loop order
// (b, t, h) (attention's preatt): the rows' order is not the loop's, yet
// each belongs to one (b, t, h). All gradients checked in both modes at 1,
// 2 and 4 threads. Rows padded to a length the compiler cannot compare
// with their width (Pad >= Width only the run knows) are owned where the
// gradient's run-time check shows it; with rows that overlap (Pad < Width)
// the check fails and the adjoints go through per-thread copies, which the
// race check (race.test) would catch otherwise. A softmax per row with the
// loss at a target index the program loads (crossentropy's
// -log(probs[bt][targets[bt]])): that load cannot be placed, but every other
// access of probs writes what it reads, so the rows stay owned and only the
// target load's adjoint is atomic; also where every row's target is one
// location past the rows that no iteration writes (then that adjoint must
// be atomic: the race check sees it otherwise). The rows' padding (none:
// Pad2 == Width, and a loop from Width to Pad2 counts zext(-1) trips less
// one) keeps the run-time check true, as a memset and as a loop.
// REMARK: remark: gradient of 'targeted' checks at run time {{.*}}; and that every location 1 parallel region argument(s) point to belongs to one iteration
// REMARK: remark: gradient of 'padded' checks at run time {{.*}}; and that every location 1 parallel region argument(s) point to belongs to one iteration
// RUN: %clang_omp -O2 %s -S -emit-llvm -o - | FileCheck %s
// RUN: %clang_omp -O2 %s -c -o /dev/null -Rpass=ad 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
//
// The rows' check is Pad2 >= Width (7), not a span that counts zext(-1)
// padding trips.
// CHECK-LABEL: define internal void @targeted.ad.gradient(
// CHECK: load volatile i32, ptr @Pad2
// CHECK-NOT: zext i32
// CHECK: icmp sgt i32 {{%[0-9]+}}, 6
// The target load's adjoint is the one atomic add, in the copy whose
// check vouched for the rows.
// CHECK-LABEL: define internal void @targeted.omp_outlined{{.*}}.ad.adjoint{{[.0-9]+}}(
// CHECK: atomicrmw fadd
// CHECK-NOT: atomicrmw
// CHECK: ret void
// CHECK-LABEL: define internal void @scores.omp_outlined{{.*}}.ad.adjoint{{[.0-9]*}}(
// CHECK-NOT: atomicrmw
// CHECK: ret void
// CHECK-LABEL: define internal void @rows.omp_outlined{{.*}}.ad.adjoint{{[.0-9]*}}(
// CHECK-NOT: atomicrmw
// CHECK: ret void
// CHECK-LABEL: define internal void @targeted.omp_outlined{{.*}}.ad.adjoint{{[.0-9]*}}.team(
// CHECK-NOT: __ad_omp_sum_private
// CHECK: ret void
// CHECK-LABEL: define internal void @scores.omp_outlined{{.*}}.ad.adjoint{{[.0-9]*}}.team(
// CHECK-NOT: __ad_omp_sum_private
// CHECK: ret void
// CHECK-LABEL: define internal void @overlap.omp_outlined{{.*}}.ad.adjoint{{[.0-9]*}}.team(
// CHECK: call void @__ad_omp_sum_private.f64(
// CHECK: ret void
// CHECK-LABEL: define internal void @rows.omp_outlined{{.*}}.ad.adjoint{{[.0-9]*}}.team(
// CHECK-NOT: __ad_omp_sum_private
// CHECK: ret void
#include "omp_test.h"
#include <ad.h>

#define B 3
#define T 5
#define C 7
#define H 2

static int Rows = B, Steps = T, Width = C, Heads = H, Pad = C + 2;

static double rows(double *x, int n) {
  (void)n;
  double y[B * T * C];
  int nb = Rows, nt = Steps, c = Width;
#pragma omp parallel for collapse(2)
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++)
      for (int i = 0; i < c; i++)
        y[(b * nt + t) * c + i] =
            sin(x[(b * nt + t) * c + i]) * x[(b * nt + t) * c + i];
  double e = 0;
  for (int k = 0; k < nb * nt * c; k++)
    e += y[k] * (k % 3 + 1);
  return e;
}

/* Each row also reads the next row's first element. */
static double overlap(double *x, int n) {
  (void)n;
  double y[B * T * C];
  int nb = Rows, nt = Steps, c = Width;
#pragma omp parallel for collapse(2)
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++)
      for (int i = 0; i < c; i++)
        y[(b * nt + t) * c + i] =
            sin(x[(b * nt + t) * c + i]) * x[(b * nt + t) * c + i + 1];
  double e = 0;
  for (int k = 0; k < nb * nt * c; k++)
    e += y[k] * (k % 3 + 1);
  return e;
}

static double scores(double *x, int n) {
  (void)n;
  double y[B * H * T * T] = {0};
  int nb = Rows, nt = Steps, nh = Heads;
#pragma omp parallel for collapse(3)
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++)
      for (int h = 0; h < nh; h++)
        for (int t2 = 0; t2 <= t; t2++) {
          int k = ((b * nh + h) * nt + t) * nt + t2;
          y[k] = sin(x[k]) * x[k];
        }
  double e = 0;
  for (int k = 0; k < nb * nh * nt * nt; k++)
    e += y[k] * (k % 3 + 1);
  return e;
}

/* Rows of Width values, Pad apart. */
static double padded(double *x, int n) {
  (void)n;
  int nb = Rows, nt = Steps, c = Width, p = Pad;
  double e = 0;
#pragma omp parallel for collapse(2) reduction(+ : e)
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++)
      for (int i = 0; i < c; i++) {
        double v = x[(b * nt + t) * p + i];
        e += sin(v) * v * ((b + t + i) % 3 + 1);
      }
  return e;
}

/* Row k's target: its own column Targets[k], or, with TargetTail, the one
 * location after the rows (the same for every row). */
static int Targets[B * T], TargetTail;
static volatile int Pad2; /* a row length only the run knows */
static double PadWith; /* 0: the padding loop is a memset */

static double targeted(double *x, int n) {
  (void)n;
  int nb = Rows, nt = Steps, c = Width, p = Pad2, tail = TargetTail;
  double probs[B * T * C + 1], loss[B * T];
  probs[nb * nt * p] = x[0] * x[0] + 0.5;
#pragma omp parallel for collapse(2)
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++) {
      int k = b * nt + t;
      double *row = probs + k * p, s = 0;
      for (int i = 0; i < c; i++) {
        row[i] = exp(x[k * c + i]);
        s += row[i];
      }
      for (int i = 0; i < c; i++)
        row[i] /= s;
      if (PadWith == 0)
        for (int i = c; i < p; i++)
          row[i] = 0;
      else
        for (int i = c; i < p; i++)
          row[i] = PadWith;
      loss[k] = -log(row[tail ? (nb * nt - k) * p : Targets[k]]);
    }
  double e = 0;
  for (int k = 0; k < nb * nt; k++)
    e += loss[k] * (k % 3 + 1);
  for (int k = 0; k < nb * nt * p; k++)
    e += probs[k] * (k % 5) * 0.25;
  return e;
}

int main(void) {
  enum { N = B * T * C + 1, NS = B * H * T * T };
  double x[N], xs[NS];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("rows", rows, x, N, 1e-6);
  OMP_CHECK_SCALAR("overlapping rows", overlap, x, N, 1e-6);
  omp_fill(xs, NS, -1, 1);
  OMP_CHECK_SCALAR("scores", scores, xs, NS, 1e-6);
  enum { NP = B * T * (C + 2) };
  double xp[NP];
  omp_fill(xp, NP, -1, 1);
  OMP_CHECK_SCALAR("padded rows", padded, xp, NP, 1e-6);
  Pad = C - 2; /* overlapping rows: the check fails */
  OMP_CHECK_SCALAR("overlapping padded rows", padded, xp, NP, 1e-6);
  for (int k = 0; k < B * T; k++)
    Targets[k] = (k * 5 + 3) % C;
  Pad2 = C;
  OMP_CHECK_SCALAR("targeted rows", targeted, x, N, 1e-6);
  TargetTail = 1, PadWith = 0.5;
  OMP_CHECK_SCALAR("targets past the rows", targeted, x, N, 1e-6);
  return ad_test_finish();
}
