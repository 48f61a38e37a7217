// Inline assembly that reads and writes a differentiated value has no
// derivative rule. (The "x" constraint is an SSE register: x86-64 only.)
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x) {
  double y = x * x;
  // CHECK: {{.*}}inline_asm.c:[[@LINE+1]]:3: error: cannot differentiate 'f': indirect call or inline assembly with differentiated arguments; hint: define the function in this module, or call it only with __ad_const data
  __asm__ volatile("" : "+x"(y));
  return y;
}

double g(double x) { return __ad_autodiff((void *)f, x); }
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
