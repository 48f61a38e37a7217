// -ad-time-report prints where the plugin's time went, one line per phase
// (the lines add up to the pass's total); without it, nothing is printed.
//
// RUN: %clang_ad -O2 -c %s -o /dev/null -mllvm -ad-time-report 2>&1 | FileCheck %s
// RUN: clang-22 -I%src/include -O1 -S -emit-llvm %s -o %t.ll
// RUN: %opt_ad -passes='ad<O2>' -ad-time-report %t.ll -disable-output 2>&1 | FileCheck %s
// RUN: %clang_ad -O2 -c %s -o /dev/null 2>&1 | count 0

// CHECK: ADPlugin compile time (-ad-time-report)
// CHECK: Total Execution Time:
// CHECK-DAG: Parsing entry-point calls
// CHECK-DAG: Canonical primal (clone, mem2reg, one return)
// CHECK-DAG: Activity analysis
// CHECK-DAG: Forward-mode synthesis
// CHECK-DAG: Reverse-mode synthesis
// CHECK-DAG: Verification of new functions
// CHECK-DAG: Post-AD optimization of new functions
// CHECK-DAG: Driver: lowering calls, cleanup, remarks
// CHECK: Total

#include <ad.h>

__attribute__((noinline)) double square(double x) { return x * x; }

double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += square(x[i]);
  return s;
}

double g(double x) { return square(x) * x; }

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __ad_autodiff((void *)f, x, dx, 3);
  return (int)__ad_fwddiff((void *)g, 2.0, 1.0);
}
