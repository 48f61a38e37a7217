// Nested derivatives are supported (test/Integration/n_*.c), except where
// they cannot end or cannot be right, which is said at the source line:
//  - a function whose differentiation reaches its own differentiation call,
//    directly or through other functions: its derivative would contain a
//    derivative of itself, without end;
//  - an inner gradient accumulated into memory the outer call marks
//    __ad_const: the outer derivative of those adjoints has nowhere to go.
//    The error is reported in the inner function's code, as "the derivative
//    of" it, at the line whose adjoint is stored.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

void __ad_autodiff_void(void *, ...);

double self(double x) {
  if (x > 10)
    return x;
  // CHECK-DAG: {{.*}}nested_entry_point.c:[[@LINE+1]]:10: error: invalid differentiation call in 'self': 'self' reaches this differentiation call itself, so its derivative would contain a derivative of itself (recursive nesting of derivatives); hint: differentiate a function that does not call back into the differentiation of itself
  return __ad_autodiff((void *)self, x + 1) * x;
}

double mutual(double x);
__attribute__((noinline)) double tangent_of_mutual(double x) {
  // CHECK-DAG: {{.*}}nested_entry_point.c:[[@LINE+1]]:10: error: invalid differentiation call in 'tangent_of_mutual': 'mutual' reaches this differentiation call itself
  return __ad_fwddiff((void *)mutual, x, 1.0);
}
double mutual(double x) { return tangent_of_mutual(x) * x; }

static double sum_sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: {{.*}}nested_entry_point.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate the derivative of 'sum_sq': a differentiated value is stored to memory that has no shadow, so its derivative would be lost; hint: pass that memory as an __ad_dup argument instead of __ad_const or a global
    s += x[i] * x[i] * x[i];
  return s;
}
double grad_dot(const double *x, double *g, int n) {
  __ad_autodiff_void((void *)sum_sq, x, g, __ad_const, n);
  return g[0] * g[1];
}
void outer(double *x, double *dx, double *g) {
  __ad_autodiff_void((void *)grad_dot, x, dx, __ad_const, g, __ad_const, 2);
}
// CHECK: 3 errors generated.
