// realloc of a buffer that nothing in the function types (it is only passed
// through as void *): reverse mode must move the adjoints from the new
// shadow back into the old one and cannot tell which bytes are doubles.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdlib.h>

__attribute__((noinline)) void grow(void **slot, size_t n) {
  // CHECK: {{.*}}realloc_untyped.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'grow': cannot tell which bytes of this reallocated memory hold floating-point data; hint: access the buffer through a typed pointer
  *slot = realloc(*slot, n);
}
void rev(void **s, void **ds, size_t n) { __ad_autodiff((void *)grow, s, ds, n); }
// CHECK: 1 error generated.
