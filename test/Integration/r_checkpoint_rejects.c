// Works (keep it working): time loops whose state the plugin could bound
// only too widely are left to the ordinary gradient, which is right, and
// a checkpointed loop saves no bytes the program does not write. Each
// gradient is compared with the same program built with
// -mllvm -ad-checkpoint=false (the outputs must be the same to the last
// digit), under a one-byte budget, and %run (valgrind) sees no access
// outside the program's memory:
//   - tri: a triangular nest (for j = i; j < n): the largest start and the
//     largest count never meet, and a range from both would cover the
//     shadow that follows the array (wrong adjoints);
//   - cond: an optional output stored after the loop under an `if`, NULL
//     here, that may be what the loop reads: not saved with the snapshots
//     (it may be no memory at all), so the loop is left alone;
//   - zero: no steps, and no scratch buffer (NULL) at -O0, where the loop
//     tests at its top: rotated first, so nothing runs and nothing is saved;
//   - fx: frexp writes through its pointer argument, state of the next
//     step: not a math call without effects;
//   - pg: a loop guarded by a pointer comparison: compiles.
// RUN: %clang_ad -O2 %s -o %t -lm -Rpass=ad -Rpass-missed=ad 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_ad -O2 %s -o %t.off -lm -mllvm -ad-checkpoint=false
// RUN: env AD_TAPE_BUDGET=1 %run %t > %t.out
// RUN: %t.off > %t.off.out
// RUN: diff %t.out %t.off.out
// RUN: %clang_ad -O0 %s -o %t0 -lm
// RUN: %clang_ad -O0 %s -o %t0.off -lm -mllvm -ad-checkpoint=false
// RUN: env AD_TAPE_BUDGET=1 %run %t0 > %t0.out
// RUN: %t0.off > %t0.off.out
// RUN: diff %t0.out %t0.off.out
// REMARK-DAG: remark: the gradient of 'tri' records every iteration of this loop, whatever the tape budget
// REMARK-DAG: remark: the gradient of 'fx' records every iteration of this loop, whatever the tape budget: it calls a function that may write memory or have other effects
// REMARK-DAG: remark: the gradient of 'cond' records every iteration of this loop, whatever the tape budget: what it reads may be written after it
// REMARK-DAG: remark: the gradient of 'zero' may checkpoint this loop
#include <ad.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void tri(double *x, int n, int steps, double *loss) {
  for (int s = 0; s < steps; s++)
    for (int i = 0; i < n; i++)
      for (int j = i; j < n; j++)
        x[j] = 0.99 * x[j] + 0.001 * sin(x[i]);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += x[i] * x[i];
  *loss = sum;
}

void cond(double *x, int n, int steps, double *loss, double *extra) {
  for (int s = 0; s < steps; s++)
    for (int i = 0; i < n; i++)
      x[i] = 0.9 * x[i] + 0.01 * sin(x[i]);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += x[i] * x[i];
  *loss = sum;
  if (extra)
    *extra = 1.0;
}

void zero(double *u, double *tmp, int n, int steps, double *loss) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      tmp[i] = 0.9 * u[i] + 0.01 * sin(u[i]);
    for (int i = 0; i < n; i++)
      u[i] = tmp[i];
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += u[i] * u[i];
  *loss = sum;
}

void fx(double *x, int *e, int n, int steps, double *loss) {
  for (int s = 0; s < steps; s++)
    for (int i = 0; i < n; i++) {
      x[i] = 0.9 * x[i] + 0.01 * e[i] * x[i];
      frexp(x[i] * 8.0, &e[i]);
    }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += x[i] * x[i];
  *loss = sum;
}

void pg(double *x, double *e, long k, int steps, double *loss) {
  for (int s = 0; s < steps; s++)
    for (double *p = x + k; p < e; p++)
      *p = 0.9 * *p + 0.01 * sin(*p);
  double sum = 0;
  for (double *p = x; p < e; p++)
    sum += *p * *p;
  *loss = sum;
}

static void print(const char *name, double loss, const double *d, int n) {
  printf("%s %.17g", name, loss);
  for (int i = 0; i < n; i++)
    printf(" %.17g", d[i]);
  printf("\n");
}

int main(void) {
  enum { n = 8 };
  double loss, dloss;
  /* tri: the shadow right after the array, in one block. */
  double *mem = calloc(2 * n, sizeof(double));
  double *x = mem, *dx = mem + n;
  for (int i = 0; i < n; i++)
    x[i] = 0.5 + 0.1 * i;
  dloss = 1;
  __ad_autodiff((void *)tri, __ad_dup, x, dx, n, 20, __ad_dup, &loss, &dloss);
  print("tri", loss, dx, n);
  free(mem);

  double y[n], dy[n] = {0};
  for (int i = 0; i < n; i++)
    y[i] = 0.5 + 0.1 * i;
  dloss = 1;
  __ad_autodiff((void *)cond, __ad_dup, y, dy, n, 20, __ad_dup, &loss, &dloss,
                __ad_const, (double *)0);
  print("cond", loss, dy, n);

  double u[n], du[n] = {0};
  for (int i = 0; i < n; i++)
    u[i] = 0.5 + 0.1 * i;
  dloss = 1;
  __ad_autodiff((void *)zero, __ad_dup, u, du, __ad_dup, (double *)0,
                (double *)0, n, 0, __ad_dup, &loss, &dloss);
  print("zero", loss, du, n);

  double v[n], dv[n] = {0};
  int e[n] = {0};
  for (int i = 0; i < n; i++)
    v[i] = 0.5 + 0.7 * i;
  dloss = 1;
  __ad_autodiff((void *)fx, __ad_dup, v, dv, __ad_const, e, n, 30, __ad_dup,
                &loss, &dloss);
  print("fx", loss, dv, n);
  printf("fx e %d %d\n", e[0], e[5]);

  double w[n], dw[n] = {0};
  for (int i = 0; i < n; i++)
    w[i] = 0.5 + 0.1 * i;
  dloss = 1;
  __ad_autodiff((void *)pg, __ad_dup, w, dw, __ad_const, w + n, 2L, 20,
                __ad_dup, &loss, &dloss);
  print("pg", loss, dw, n);
  return 0;
}
