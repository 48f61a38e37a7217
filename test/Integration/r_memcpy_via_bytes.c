// Regression: memcpy of a caller-chosen number of bytes from a duplicated
// double buffer into an unsigned char buffer, read back as a double. The
// layout analysis learns from the later typed copy into `y` which bytes are
// doubles, at -O0 as at -O2, so the derivative must be right (dx = {6, 0}).
// The case with nothing typed in f is test/Diagnostics/memcpy_untyped.c.
// RUN: %clang_ad -O0 -g %s -o %t.O0 && %run %t.O0
// RUN: %clang_ad -O2 -g %s -o %t.O2 && %run %t.O2
#include <ad.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) double f(double *x, unsigned char *raw, int n) {
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
