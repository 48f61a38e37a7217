// memcpy from differentiated memory into a global buffer that nothing in
// the differentiated call reads back: the global is an output, and the
// adjoints of the copied doubles would be lost (a global used as scratch,
// read after the copy, gets a shadow: r_mutable_globals.c).
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <string.h>

double saved[4];
__attribute__((noinline)) void stash(double *x) {
  // CHECK: {{.*}}memcpy_to_unshadowed.c:[[@LINE+1]]:3: error: cannot differentiate 'stash': a differentiated value is stored in global 'saved' and nothing in the differentiated call reads it back: the global is an output, whose derivative would be lost; hint: return the value or write it through an __ad_dup pointer; a global the call only uses as scratch must be read after it is written
  memcpy(saved, x, sizeof saved);
}
void rev(double *x, double *dx) { __ad_autodiff((void *)stash, x, dx); }
// CHECK: 1 error generated.
