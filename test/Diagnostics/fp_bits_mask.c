// fabs written as a mask on the bits of a double: no derivative rule can see
// through integer arithmetic on floating-point bits, so this is an error (reported
// once, though both modes need it) rather than a silently wrong derivative.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// At -O1 and up instcombine recognizes the mask as llvm.fabs, which
// differentiates normally:
// RUN: %clang_ad -O2 -c %s -o /dev/null
#include <ad.h>

typedef union {
  double d;
  long l;
} DL;

static double myabs(double x) {
  DL u;
  u.d = x;
  // CHECK: fp_bits_mask.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'myabs': the bits of a differentiated floating-point value are computed on as an integer ('and'); hint: use fabs, copysign and the like instead of bit manipulation
  u.l &= 0x7fffffffffffffffL;
  return u.d;
}

double rev(double x) { return __ad_autodiff((void *)myabs, x); }
double fwd(double x) { return __ad_fwddiff((void *)myabs, x, 1.0); }
// CHECK: 1 error generated.
