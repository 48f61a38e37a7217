// The race check catches a race: a parallel loop that adds to a shared
// double without atomic or reduction, built with TSan and run under Archer
// as race.test runs the derivative programs, must fail with TSan's report,
// and the same loop with reduction(+) must pass (Archer tells TSan about
// the runtime's synchronization, so the reduction is no false alarm).
// REQUIRES: archer
// RUN: %clang_omp -fsanitize=thread -g -O2 %s -o %t.racy -lm
// RUN: env OMP_NUM_THREADS=4 %archer_env not %t.racy 2>&1 | FileCheck %s
// RUN: %clang_omp -fsanitize=thread -g -O2 -DFIXED %s -o %t.fixed -lm
// RUN: env OMP_NUM_THREADS=4 %archer_env %t.fixed
// CHECK: WARNING: ThreadSanitizer: data race
#include <stdio.h>

#define N 200

int main(void) {
  double x[N], s = 0;
  for (int i = 0; i < N; i++)
    x[i] = 0.01 * i;
#ifdef FIXED
#pragma omp parallel for reduction(+ : s)
#else
#pragma omp parallel for
#endif
  for (int i = 0; i < N; i++)
    // CHECK: race_selfcheck.c:[[@LINE+1]]
    s += x[i] * x[i];
  printf("%g\n", s);
  return 0;
}
