// In C++, an entry point called inside a try block becomes an invoke; the
// plugin rejects it with a diagnostic rather than mis-lowering the unwind edge.
// RUN: not %clangxx_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clangxx_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

void may_throw();
double f(double x) { return x * x; }

double g(double x) {
  try {
    may_throw();
    // The function is named by its mangled or its demangled name.
    // CHECK: {{.*}}invoke.cpp:[[@LINE+1]]:12: error: invalid differentiation call in '{{_Z1gd|g\(double\)|g}}': the call may throw (it is an invoke); hint: call the entry point outside a try block
    return __ad_autodiff((void *)f, x);
  } catch (...) {
    return 0.0;
  }
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
