// Memory passed as __ad_const has no shadow; storing a differentiated value
// into it (and reading it back) would lose the derivative.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double f(double x, double *buf) {
  // CHECK: {{.*}}store_to_const_memory.c:[[@LINE+1]]:10: error: cannot differentiate 'f': a differentiated value is stored to memory that has no shadow, so its derivative would be lost; hint: pass that memory as an __ad_dup argument instead of __ad_const or a global
  buf[0] = x * x;
  return buf[0] + x;
}

double g(double x, double *buf) {
  return __ad_autodiff((void *)f, x, __ad_const, buf);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
