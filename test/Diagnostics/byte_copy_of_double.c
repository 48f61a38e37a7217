// A struct holding doubles copied byte by byte (a char loop): each byte is
// part of a double, whose adjoint cannot be split into bytes, so reverse
// mode reports it at the copy instead of dropping the derivative (before,
// i8 copies were not looked at, and the gradient came out 0). At -O2 the
// loop is unrolled into the same byte copies.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stddef.h>

struct P { double x, y; };

__attribute__((noinline)) static void copy_bytes(struct P *d, const struct P *s) {
  char *dc = (char *)d;
  const char *sc = (const char *)s;
  for (size_t i = 0; i < sizeof *d; i++)
    // CHECK: {{.*}}byte_copy_of_double.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'copy_bytes': this copies part of a floating-point value as an integer (a byte-wise copy of a double, say); its derivative cannot be split into bytes; hint: copy whole values: assign, or use memcpy
    dc[i] = sc[i];
}

static double norm2(struct P *p) {
  struct P q;
  copy_bytes(&q, p);
  return q.x * q.x + q.y * q.y;
}

void grad(struct P *p, struct P *dp) { __ad_autodiff((void *)norm2, p, dp); }
// CHECK: 1 error generated.
