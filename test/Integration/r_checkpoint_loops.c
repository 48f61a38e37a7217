// Works (keep it working): time loops checkpointed under the tape budget
// (primal/CheckpointLoops.cpp, modes/CheckpointBuilder.cpp, the scheduler in
// runtime/checkpoint/). Each gradient runs with no budget set (the default:
// every state kept as an undo record of what the step writes) and with
// budgets that hold a few snapshots or none (binomial for a counted loop,
// online for a while loop), and must equal the first to 1e-12 and central
// finite differences to 1e-6:
//   - burgers: a counted loop over two buffers swapped by pointer (the
//     final one read after the loop), coefficients the loop only reads and
//     code after it overwrites (saved with the snapshots), the loss stored
//     after the loop;
//   - adaptive: a while loop whose time step depends on the state (a
//     running maximum), the time carried in a double, the state copied back
//     in place each step;
//   - heat: a 2-D nest in the step, a helper that writes memory (inlined
//     into the step by the plugin) and one that only computes (a call);
//   - printing: a loop whose step prints is not checkpointed (running the
//     step again would print again) and says so; still right;
//   - freeing: a loop whose scratch buffer a call after it frees is not
//     checkpointed either (a call after the loop that may free or rewrite
//     what the loop writes; a store would be put back, a call not) and
//     says so; still right.
// The report (AD_TAPE_REPORT=1) names each schedule; -Rpass=ad names the
// loops that may be checkpointed; the IR shows the loop replaced by its
// checkpointed derivative. %run (valgrind) sees every saved range
// inside its object and nothing leaked, at -O0 and -O2.
// RUN: %clang_ad -O2 %s -o %t -lm -Rpass=ad -Rpass-missed=ad 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: env AD_TAPE_REPORT=1 %run %t 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: %clang_ad -mllvm -ad-inline-derivatives=false -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang_ad -O0 %s -o %t0 -lm
// RUN: env AD_TAPE_REPORT=1 %run %t0 2>&1 | FileCheck %s --check-prefix=REPORT
// REMARK-DAG: r_checkpoint_loops.c:{{[0-9]+}}:3: remark: the gradient of 'burgers' may checkpoint this loop under the tape budget (counted: binomial schedule
// REMARK-DAG: r_checkpoint_loops.c:{{[0-9]+}}:3: remark: the gradient of 'adaptive' may checkpoint this loop under the tape budget (count known at its exit: online schedule
// REMARK-DAG: r_checkpoint_loops.c:{{[0-9]+}}:3: remark: the gradient of 'heat' may checkpoint this loop under the tape budget (counted: binomial schedule
// REMARK-DAG: r_checkpoint_loops.c:{{[0-9]+}}:3: remark: the gradient of 'printing' records every iteration of this loop, whatever the tape budget: it calls a function that may write memory or have other effects
// REMARK-DAG: r_checkpoint_loops.c:{{[0-9]+}}:3: remark: the gradient of 'freeing' records every iteration of this loop, whatever the tape budget: a call after it may free or write memory it writes
// REPORT: ad: checkpointed burgers: {{.*}}: {{6[01]}} steps, schedule all-states,
// REPORT: ad: checkpointed burgers: {{.*}}: {{6[01]}} steps, schedule binomial, {{.*}} steps recomputed,
// REPORT: ad: checkpointed burgers: {{.*}}: {{6[01]}} steps, schedule binomial, {{.*}} budget 1 bytes
// REPORT: ad: checkpointed adaptive: {{.*}} schedule all-states,
// REPORT: ad: checkpointed adaptive: {{.*}} schedule online,
// REPORT: ad: checkpointed adaptive: {{.*}} schedule online, {{.*}} budget 1 bytes
// REPORT: ad: checkpointed heat: {{.*}}: {{2[56]}} steps, schedule all-states,
// REPORT: ad: checkpointed heat: {{.*}}: {{2[56]}} steps, schedule binomial,
// REPORT: ad: checkpointed heat: {{.*}}: {{2[56]}} steps, schedule binomial, {{.*}} budget 1 bytes
// REPORT-NOT: ad: checkpointed
// The loop of heat's gradient is one call to its checkpointed derivative,
// which the scheduler (linked in, internal) runs step by step:
// IR-LABEL: define internal void @heat.ad.gradient(
// IR:         call void @heat.ad.primal.{{[0-9]+}}.ad.loop.ad.augmented(
// IR:         call void @heat.ad.primal.{{[0-9]+}}.ad.loop.ad.adjoint(
// IR-LABEL: define internal i1 @heat.ad.primal.{{[0-9]+}}.ad.step(
// IR-LABEL: define internal void @heat.ad.primal.{{[0-9]+}}.ad.loop.ad.augmented(
// IR:         call {{.*}}@__ad_ckpt_forward(
// IR-LABEL: define internal void @heat.ad.primal.{{[0-9]+}}.ad.loop.ad.adjoint(
// IR:         call void @__ad_ckpt_reverse(
// IR:       define internal {{.*}}@__ad_ckpt_forward(
#include "ad_test.h"
#include <ad.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 40

void burgers(double *u, double *un, double *coef, int n, int steps,
             double *loss) {
  double *a = u, *b = un;
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = a[i] - 0.05 * a[i] * (a[i + 1] - a[i - 1]) +
             coef[0] * (a[i + 1] - 2 * a[i] + a[i - 1]);
    b[0] = b[1];
    b[n - 1] = b[n - 2];
    double *t = a;
    a = b;
    b = t;
  }
  coef[0] = 0; // after the loop: the steps run again must read 0.1
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i] * a[i] * (1 + 0.01 * i);
  *loss = sum;
}

void adaptive(double *u, double *tmp, int n, double horizon, double *loss) {
  double t = 0;
  while (t < horizon) {
    double m = 0;
    for (int i = 0; i < n; i++)
      m = fabs(u[i]) > m ? fabs(u[i]) : m;
    double dt = 0.2 / (1 + m);
    for (int i = 0; i < n; i++)
      tmp[i] = u[i] +
               dt * (u[(i + 1) % n] - 2 * u[i] + u[(i + n - 1) % n]) -
               0.1 * dt * u[i] * u[i];
    for (int i = 0; i < n; i++)
      u[i] = tmp[i];
    t += dt;
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += u[i] * (1 + 0.1 * i);
  *loss = sum;
}

__attribute__((noinline)) static void laplacian(const double *u, double *lap,
                                                int nx, int ny) {
  for (int j = 1; j < ny - 1; j++)
    for (int i = 1; i < nx - 1; i++)
      lap[j * nx + i] = u[j * nx + i + 1] + u[j * nx + i - 1] +
                        u[(j + 1) * nx + i] + u[(j - 1) * nx + i] -
                        4 * u[j * nx + i];
}

__attribute__((noinline)) static double source(double v) {
  return v * (1 - v) * sin(v);
}

void heat(double *u, double *lap, int nx, int ny, int steps, double *loss) {
  for (int s = 0; s < steps; s++) {
    laplacian(u, lap, nx, ny);
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        u[j * nx + i] += 0.2 * lap[j * nx + i] + 0.05 * source(u[j * nx + i]);
  }
  double sum = 0;
  for (int k = 0; k < nx * ny; k++)
    sum += u[k] * u[k];
  *loss = sum;
}

void printing(double *u, int n, int steps, double *loss) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      u[i] = sin(u[i]) + 0.5 * u[i];
    if (u[0] > 100)
      printf("never\n");
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += u[i];
  *loss = sum;
}

void freeing(double *u, double *scratch, int n, int steps, double *loss) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      scratch[i] = sin(u[i]);
    for (int i = 0; i < n; i++)
      u[i] = scratch[i] + 0.5 * u[i];
  }
  free(scratch);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += u[i];
  *loss = sum;
}

static void start(double *u, int n) {
  for (int i = 0; i < n; i++)
    u[i] = 0.5 + 0.4 * sin(0.7 * i);
}

/* Budgets: none set, about two snapshots of the loop's state, one byte. */
static const char *budgets[] = {NULL, "2K", "1"};

static void set_budget(const char *b) {
  if (b)
    setenv("AD_TAPE_BUDGET", b, 1);
  else
    unsetenv("AD_TAPE_BUDGET");
}

static double burgers_loss(double *u0, int k, double h) {
  double u[N], un[N] = {0}, coef[1] = {0.1}, loss;
  memcpy(u, u0, sizeof u);
  u[k] += h;
  burgers(u, un, coef, N, 60, &loss);
  return loss;
}

static void check_burgers(void) {
  double u0[N], first[N];
  start(u0, N);
  for (int b = 0; b < 3; b++) {
    set_budget(budgets[b]);
    double u[N], du[N] = {0}, un[N] = {0}, dun[N] = {0};
    double coef[1] = {0.1}, dcoef[1] = {0}, loss = 0, dloss = 1;
    memcpy(u, u0, sizeof u);
    __ad_autodiff((void *)burgers, __ad_dup, u, du, __ad_dup, un, dun,
                  __ad_dup, coef, dcoef, N, 60, __ad_dup, &loss, &dloss);
    CHECK_CLOSE(loss, burgers_loss(u0, 0, 0), 1e-12);
    CHECK_CLOSE(coef[0], 0, 0);
    for (int i = 0; i < N; i++) {
      if (b == 0)
        first[i] = du[i];
      CHECK_CLOSE(du[i], first[i], 1e-12);
    }
    for (int i = 3; i < N; i += 9)
      CHECK_CLOSE(du[i],
                  (burgers_loss(u0, i, 1e-6) - burgers_loss(u0, i, -1e-6)) /
                      2e-6,
                  1e-6);
  }
}

static double adaptive_loss(double *u0, int k, double h) {
  double u[N], tmp[N], loss;
  memcpy(u, u0, sizeof u);
  u[k] += h;
  adaptive(u, tmp, N, 3.0, &loss);
  return loss;
}

static void check_adaptive(void) {
  double u0[N], first[N];
  start(u0, N);
  for (int b = 0; b < 3; b++) {
    set_budget(budgets[b]);
    double u[N], du[N] = {0}, tmp[N] = {0}, dtmp[N] = {0}, loss, dloss = 1;
    memcpy(u, u0, sizeof u);
    __ad_autodiff((void *)adaptive, __ad_dup, u, du, __ad_dup, tmp, dtmp, N,
                  __ad_const, 3.0, __ad_dup, &loss, &dloss);
    CHECK_CLOSE(loss, adaptive_loss(u0, 0, 0), 1e-12);
    for (int i = 0; i < N; i++) {
      if (b == 0)
        first[i] = du[i];
      CHECK_CLOSE(du[i], first[i], 1e-12);
    }
    for (int i = 1; i < N; i += 7)
      CHECK_CLOSE(du[i],
                  (adaptive_loss(u0, i, 1e-6) - adaptive_loss(u0, i, -1e-6)) /
                      2e-6,
                  1e-6);
  }
}

#define NX 9
#define NY 7

static double heat_loss(double *u0, int k, double h) {
  double u[NX * NY], lap[NX * NY] = {0}, loss;
  memcpy(u, u0, sizeof u);
  u[k] += h;
  heat(u, lap, NX, NY, 25, &loss);
  return loss;
}

static void check_heat(void) {
  double u0[NX * NY], first[NX * NY];
  start(u0, NX * NY);
  for (int b = 0; b < 3; b++) {
    set_budget(budgets[b]);
    double u[NX * NY], du[NX * NY] = {0}, lap[NX * NY] = {0},
                       dlap[NX * NY] = {0}, loss, dloss = 1;
    memcpy(u, u0, sizeof u);
    __ad_autodiff((void *)heat, __ad_dup, u, du, __ad_dup, lap, dlap, NX, NY,
                  25, __ad_dup, &loss, &dloss);
    CHECK_CLOSE(loss, heat_loss(u0, 0, 0), 1e-12);
    for (int i = 0; i < NX * NY; i++) {
      if (b == 0)
        first[i] = du[i];
      CHECK_CLOSE(du[i], first[i], 1e-12);
    }
    for (int i = 10; i < NX * NY; i += 11)
      CHECK_CLOSE(du[i],
                  (heat_loss(u0, i, 1e-6) - heat_loss(u0, i, -1e-6)) / 2e-6,
                  1e-6);
  }
}

static void check_printing(void) {
  double u[N], du[N] = {0}, loss, dloss = 1;
  start(u, N);
  double u1 = u[1];
  __ad_autodiff((void *)printing, __ad_dup, u, du, N, 3, __ad_dup, &loss,
                &dloss);
  double d = 1;
  for (int s = 0; s < 3; s++) {
    d *= cos(u1) + 0.5;
    u1 = sin(u1) + 0.5 * u1;
  }
  CHECK_CLOSE(du[1], d, 1e-12);
}

static void check_freeing(void) {
  double u[N], du[N] = {0}, loss, dloss = 1;
  double *scratch = malloc(N * sizeof *scratch);
  double *dscratch = calloc(N, sizeof *dscratch);
  start(u, N);
  double u1 = u[1];
  set_budget("1");
  __ad_autodiff((void *)freeing, __ad_dup, u, du, __ad_dup, scratch, dscratch,
                N, 3, __ad_dup, &loss, &dloss);
  double d = 1;
  for (int s = 0; s < 3; s++) {
    d *= cos(u1) + 0.5;
    u1 = sin(u1) + 0.5 * u1;
  }
  CHECK_CLOSE(du[1], d, 1e-12);
  free(dscratch);
}

int main(void) {
  check_burgers();
  check_adaptive();
  check_heat();
  check_printing();
  check_freeing();
  return ad_test_finish();
}
