// A differentiated value stored into a global: the global has no shadow, so
// the derivative that flows through it would be lost. Reverse and forward.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double saved;
double saved_fwd;

double f(double x) {
  // CHECK-DAG: {{.*}}store_to_global.c:[[@LINE+1]]:9: error: cannot differentiate 'f': a differentiated value is stored to memory that has no shadow, so its derivative would be lost; hint: pass that memory as an __ad_dup argument instead of __ad_const or a global
  saved = x * x;
  return saved + x;
}

double t(double x) {
  // CHECK-DAG: {{.*}}store_to_global.c:[[@LINE+1]]:13: error: cannot differentiate 't': a differentiated value is stored to memory that has no shadow, so its derivative would be lost; hint: pass that memory as an __ad_dup argument instead of __ad_const or a global
  saved_fwd = x * 3.0;
  return x;
}

double g(double x) { return __ad_autodiff((void *)f, x); }
double h(double x) { return __ad_fwddiff((void *)t, x, 1.0); }
// CHECK: 2 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
