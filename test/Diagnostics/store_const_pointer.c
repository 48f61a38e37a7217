// A pointer to __ad_const memory stored into differentiated memory: later
// reads through the stored pointer would find no shadow for their
// derivatives, so this is an error in both modes, naming the parameter
// (clang drops value names, so the message says "parameter N of 'f'").
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

__attribute__((noinline)) void link(double **slots, double *c) {
  // CHECK: {{.*}}store_const_pointer.c:[[@LINE+1]]:12: error: cannot differentiate 'link': a pointer to memory without a shadow (parameter 2 of 'link', an __ad_const argument or a mutable global) is stored in or merged with differentiated memory, so derivatives read through it could not be tracked; hint: pass that memory as __ad_dup with a shadow, or declare a read-only global const
  slots[0] = c;
}
void rev(double **s, double **ds, double *c) {
  __ad_autodiff((void *)link, s, ds, __ad_const, c);
}
void fwd(double **s, double **ds, double *c) {
  __ad_fwddiff((void *)link, s, ds, __ad_const, c);
}
// CHECK: 1 error generated.
