// Found with ad_fuzz.py (see seed_42_snumo2.ll): at -O2 clang turns the copy
// of a one-double struct into `load i64` + `store i64`, and the reverse sweep
// drops it: the adjoint stays in the destination's shadow instead of moving to
// the source's. A silent wrong derivative at -O2 (-O0 reports a clean
// "cannot tell which bytes of this memory copy hold floating-point data").
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2 | FileCheck %s
// CHECK: dsrc=1 ddst={{-?}}0{{$}}
#include <ad.h>
#include <stdio.h>

struct box {
  double v;
};

void copy(struct box *src, struct box *dst) { *dst = *src; }

void __ad_autodiff_void(void *, ...);

int main(void) {
  struct box s = {2.0}, ds = {0.0}, d = {0.0}, dd = {1.0};
  __ad_autodiff_void((void *)copy, &s, &ds, &d, &dd);
  printf("dsrc=%g ddst=%g\n", ds.v, dd.v);
  return 0;
}
