// Custom rules whose types do not match the documented signatures, and a
// custom-rule function passed a pointer to differentiated memory: each is an
// error at the call naming the rule (or the pointer), in the mode that uses
// it, never a crash.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double sq(double x, float y);
/* The tangent of y is missing. */
double sq_fwd(double x, float y, double dx);
/* Returns double instead of void, and y's adjoint pointer is missing. */
double sq_rev(double x, float y, double dret, double *dx);
AD_FORWARD_RULE(sq, sq_fwd);
AD_REVERSE_RULE(sq, sq_rev);

double peek(const double *p, double x);
double peek_fwd(const double *p, double x, double dx);
void peek_rev(const double *p, double x, double dret, double *dx);
AD_FORWARD_RULE(peek, peek_fwd);
AD_REVERSE_RULE(peek, peek_rev);

double f(double x) {
  // CHECK-DAG: {{.*}}custom_rule_mismatch.c:[[@LINE+1]]:10: error: cannot differentiate 'f': the reverse rule 'sq_rev' of 'sq' has type 'double (double, float, double, ptr)', but it must be 'void (double, float, double, ptr, ptr)'; hint: a reverse rule takes f's parameters, the adjoint of f's result, then one pointer per floating-point parameter to add its adjoint to, and returns void
  return sq(x, 1.0f) * x;
}

double t(double x) {
  // CHECK-DAG: {{.*}}custom_rule_mismatch.c:[[@LINE+1]]:10: error: cannot differentiate 't': the forward rule 'sq_fwd' of 'sq' has type 'double (double, float, double)', but it must be 'double (double, float, double, float)'; hint: a forward rule takes f's parameters, then one tangent per floating-point parameter, and returns the tangent of f's result
  return sq(x, 2.0f) + x;
}

double u(double *p, double x) {
  // CHECK-DAG: {{.*}}custom_rule_mismatch.c:[[@LINE+1]]:10: error: cannot differentiate 'u': 'peek' is passed a pointer to differentiated memory (parameter 1 of 'u'), which its custom rule cannot differentiate; hint: custom rules differentiate floating-point arguments only: pass that memory as __ad_const, or pass the values
  return peek(p, x);
}

double g(double x) { return __ad_autodiff((void *)f, x); }
double h(double x) { return __ad_fwddiff((void *)t, x, 1.0); }
double k(double *p, double *dp, double x) {
  return __ad_autodiff((void *)u, p, dp, x);
}
// CHECK: 3 errors generated.
