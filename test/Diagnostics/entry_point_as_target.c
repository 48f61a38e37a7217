// The entry point itself passed as the function to differentiate. It is
// variadic, so this is rejected, once, with no crash afterwards (the call
// uses the entry point twice: as callee and as argument).
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double g(double x) {
  // CHECK: {{.*}}entry_point_as_target.c:[[@LINE+1]]:10: error: invalid differentiation call in 'g': '__ad_autodiff' has no body in this module; hint: differentiate a function defined in this translation unit
  return __ad_autodiff((void *)__ad_autodiff, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
