// A call through an alias that may be replaced at link time (weak): the
// function it names in this module need not be the one the program calls,
// so the plugin does not look through it (a strong alias it does look
// through: r_cpp_aliases.cpp). Called with a differentiated argument inside
// f, and passed to the entry point itself (h); a call of it on inactive data
// (k) is fine.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double sq(double x) { return x * x; }
double weak_sq(double) __attribute__((weak, alias("sq")));

double f(double x) {
  // CHECK-DAG: {{.*}}weak_alias.c:[[@LINE+1]]:10: error: cannot differentiate 'f': call to 'weak_sq', an alias that may be replaced at link time (weak), so the function it names need not be the one called; hint: call the function the alias names, or make the alias strong
  return weak_sq(x) + x;
}

double k(double x, int n) { return x * weak_sq((double)n); }

double g(double x) { return __ad_autodiff((void *)f, x); }
// CHECK-DAG: {{.*}}weak_alias.c:[[@LINE+1]]:29: error: invalid differentiation call in 'h': 'weak_sq' is an alias that may be replaced at link time (weak), so the function it names need not be the one called; hint: differentiate the function the alias names, or make the alias strong
double h(double x) { return __ad_autodiff((void *)weak_sq, x); }
double j(double x) { return __ad_autodiff((void *)k, x, __ad_const, 3); }
// CHECK: 2 errors generated.
