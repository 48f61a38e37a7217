// The function to differentiate is only declared here (its body is in
// another translation unit), so there is nothing to differentiate: this must
// be a diagnostic at the call, not a crash.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double ext(double);

double g(double x) {
  // CHECK: {{.*}}target_without_body.c:[[@LINE+1]]:10: error: {{.*}}'ext'{{.*}}; hint: {{.+}}
  return __ad_autodiff((void *)ext, x);
}
// CHECK: 1 error generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
