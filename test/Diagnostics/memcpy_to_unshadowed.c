// memcpy from differentiated memory into a global buffer, which has no
// shadow: the adjoints of the copied doubles would be lost.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <string.h>

double saved[4];
__attribute__((noinline)) void stash(double *x) {
  // CHECK: {{.*}}memcpy_to_unshadowed.c:[[@LINE+1]]:3: error: cannot differentiate 'stash': differentiated memory is copied into memory that has no shadow; hint: give the destination a shadow (pass it as __ad_dup)
  memcpy(saved, x, sizeof saved);
}
void rev(double *x, double *dx) { __ad_autodiff((void *)stash, x, dx); }
// CHECK: 1 error generated.
