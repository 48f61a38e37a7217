// Regression: differentiating a function that is only declared in this module
// (defined in another translation unit) crashed the plugin (segfault / bad_alloc
// in createCanonicalPrimal -> DominatorTreeAnalysis on a declaration) at every
// -O level. It must be a diagnostic naming the function instead.
// RUN: not %clang_ad -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double ext(double x); /* defined elsewhere */
void ext_grad(double *p, const double *q);

double g(double x) {
  // CHECK-DAG: r_extern_decl.c:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}ext
  return __ad_autodiff((void *)ext, x);
}

double h(double x) {
  // CHECK-DAG: r_extern_decl.c:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}ext
  return __ad_fwddiff((void *)ext, x, 1.0);
}

void k(double *p, double *dp, double *q, double *dq) {
  // CHECK-DAG: r_extern_decl.c:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}ext_grad
  __ad_autodiff((void *)ext_grad, p, dp, q, dq);
}
