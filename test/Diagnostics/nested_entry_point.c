// A differentiated function that itself calls an entry point (a derivative
// of a derivative): not supported yet, and said so at the inner call rather
// than differentiating the call as an unknown function.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

static double inner(double x) { return x * x * x; }
double outer(double x) {
  // CHECK: {{.*}}nested_entry_point.c:[[@LINE+1]]:10: error: cannot differentiate 'outer': it calls a differentiation entry point itself (nested, higher-order differentiation is not supported yet); hint: differentiate the inner function's derivative by hand, or restructure to a single level of differentiation
  return __ad_autodiff((void *)inner, x) * x;
}
double second(double x) { return __ad_autodiff((void *)outer, x); }
// CHECK: 1 error generated.
