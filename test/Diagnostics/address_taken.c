// Taking the address of an entry point instead of calling it: the plugin
// replaces calls only, so the address would become an undefined reference
// at link time, far from the cause. It is reported where it is taken.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

double (*keep)(void *, ...);
void take(void) {
  // CHECK: {{.*}}address_taken.c:[[@LINE+1]]:{{[0-9]+}}: error: invalid differentiation call in 'take': the address of a differentiation entry point is taken instead of calling it; hint: call __ad_autodiff / __ad_fwddiff directly
  keep = (double (*)(void *, ...))&__ad_autodiff;
}
// CHECK: 1 error generated.
