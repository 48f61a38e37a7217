// A loop entered at two places (a goto into its body) is irreducible: the
// reverse sweep's loop reasoning, built on LoopInfo, does not see it as a
// loop, and gave wrong gradients (0.313 where finite differences give
// 0.187). Reverse mode reports it; forward mode differentiates it.
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>

// CHECK: irreducible_loop.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'two_entries': irreducible control flow (a loop entered at more than one place, as with a goto into its body) is not supported in reverse mode; hint: give the loop a single entry; forward mode (__ad_fwddiff) handles it
double two_entries(double x, int n) {
  double s = x;
  int i = 0;
  if (n & 1)
    goto second;
first:
  s = s * 0.5 + x;
  ++i;
second:
  s = s * s * 0.25;
  if (++i < n)
    goto first;
  return s;
}

double grad(double x, int n) {
  return __ad_autodiff((void *)two_entries, x, __ad_const, n);
}

double tangent(double x, int n) {
  return __ad_fwddiff((void *)two_entries, x, 1.0, __ad_const, n);
}
