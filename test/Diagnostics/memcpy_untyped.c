// memcpy of a caller-chosen number of bytes from a duplicated double buffer
// into an unsigned char buffer. At -O0 nothing in f says which of the copied
// bytes are doubles, and the plugin says so at the copy. At -O2 the plugin
// may see the type from the later double load; then the derivative must be
// right (dx = {6, 0}), else the same diagnostic.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: %clang_ad -O2 -g -fno-crash-diagnostics %s -o %t 2> %t.err && %run %t || FileCheck %s --input-file=%t.err --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) double f(double *x, unsigned char *raw, int n) {
  // CHECK: {{.*}}memcpy_untyped.c:[[@LINE+1]]:3: error: cannot differentiate 'f': cannot tell which bytes of this memory copy hold floating-point data; hint: copy typed elements (assign or index) instead of raw bytes
  memcpy(raw, x, n);
  double y;
  memcpy(&y, raw, sizeof y);
  return y * y;
}

int main(int argc, char **argv) {
  (void)argv;
  double x[2] = {3.0, 4.0}, dx[2] = {0, 0};
  unsigned char raw[16], draw[16] = {0};
  __ad_autodiff((void *)f, x, dx, raw, draw, 7 + argc);
  printf("dx = %g %g (expected 6 0)\n", dx[0], dx[1]);
  return dx[0] == 6.0 && dx[1] == 0.0 ? 0 : 1;
}
