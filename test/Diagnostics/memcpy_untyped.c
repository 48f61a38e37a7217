// memcpy of a caller-chosen number of bytes between two buffers that nothing
// in f types: the plugin cannot tell which bytes are doubles (the caller's
// casts are invisible to it), so it says so at the copy, at -O0 and at -O2,
// instead of guessing a layout for the shadow copy.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <string.h>

__attribute__((noinline)) void f(double *x, unsigned char *raw, int n) {
  // CHECK: {{.*}}memcpy_untyped.c:[[@LINE+1]]:3: error: cannot differentiate 'f': cannot tell which bytes of this memory copy hold floating-point data (nothing types its destination, parameter 2 of 'f', or its source, parameter 1 of 'f'); hint: copy typed elements (assign or index) instead of raw bytes, or pass typed pointers
  memcpy(raw, x, n);
}

void g(double *x, double *dx, double *raw, double *draw, int n) {
  __ad_autodiff((void *)f, x, dx, (unsigned char *)raw,
                (unsigned char *)draw, n);
}
// CHECK: 1 error generated.
