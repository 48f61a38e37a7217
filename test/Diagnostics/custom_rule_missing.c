// A function with a custom rule for one mode only, differentiated in the
// other: an error naming the function and the missing macro, not a fallback
// to its body and not a crash. A function with a rule whose type rules do not
// support is an error too.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double only_fwd(double x) { return x * x; }
double only_fwd_fwd(double x, double dx) { return 2 * x * dx; }
AD_FORWARD_RULE(only_fwd, only_fwd_fwd);

double only_rev(double x);
void only_rev_rev(double x, double dret, double *dx) { *dx += dret; }
AD_REVERSE_RULE(only_rev, only_rev_rev);

struct pair { double a, b; };
struct pair split(double x);
double split_fwd(double x, double dx);
AD_FORWARD_RULE(split, split_fwd);

double f(double x) {
  // CHECK-DAG: {{.*}}custom_rule_missing.c:[[@LINE+1]]:10: error: cannot differentiate 'f': 'only_fwd' has a custom forward rule but no reverse rule, which reverse mode needs; hint: register one with AD_REVERSE_RULE, or call it only with __ad_const data
  return only_fwd(x) + x;
}

double t(double x) {
  // CHECK-DAG: {{.*}}custom_rule_missing.c:[[@LINE+1]]:14: error: cannot differentiate 't': 'only_rev' has a custom reverse rule but no forward rule, which forward mode needs; hint: register one with AD_FORWARD_RULE, or call it only with __ad_const data
  return x * only_rev(x);
}

double s(double x) {
  // CHECK-DAG: {{.*}}custom_rule_missing.c:[[@LINE+1]]:19: error: cannot differentiate 's': 'split' has a custom derivative rule, but its type '{ double, double } (double)' is not one rules support (floating-point, integer and pointer parameters, a floating-point result); hint: register the rule for a wrapper of that shape
  struct pair p = split(x);
  return p.a * p.b;
}

double g(double x) { return __ad_autodiff((void *)f, x); }
double h(double x) { return __ad_fwddiff((void *)t, x, 1.0); }
double k(double x) { return __ad_fwddiff((void *)s, x, 1.0); }
// CHECK: 3 errors generated.
