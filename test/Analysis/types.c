// print<ad-types>: for each differentiation call, what the memory behind
// each shadowed pointer holds (the floats and pointers of one element at
// their byte offsets), resolved from the facts the type analysis gathered
// (allocations, typed GEPs, accesses, TBAA tags, the callers, the callees,
// the other sides of copies); and which integers carry the bits of a float
// or a pointer (a double copied as an i64; see
// test/fuzz/regressions/seed_42_snumo2_tbaa.ll).
// RUN: %c_to_ir %s -o %t.ll
// RUN: %opt_ad -passes='function(sroa,mem2reg),print<ad-types>' %t.ll -disable-output 2>&1 | FileCheck %s
#include <ad.h>
#include <string.h>

struct Mixed {
  int n;
  double w;
  float f;
  double *p;
};

static void copy_mixed(struct Mixed *d, const struct Mixed *s) {
  memcpy(d, s, sizeof *d);
}

double f(struct Mixed *m, double *x) {
  struct Mixed t;
  copy_mixed(&t, m);
  return t.w * t.f * x[2] + t.p[0];
}

double g(struct Mixed *m, struct Mixed *dm, double *x, double *dx) {
  return __ad_autodiff((void *)f, m, dm, x, dx);
}

double h(struct Mixed *a, struct Mixed *da, struct Mixed *b, struct Mixed *db) {
  return __ad_autodiff((void *)copy_mixed, a, da, b, db);
}

// m is g's parameter, which nothing in g types; f passes it to copy_mixed
// as the source of a memcpy whose destination, in that same call, is &t:
// the type analysis follows m into copy_mixed and back out through the
// call's other argument, so m is typed by t's struct. Pointers to fields
// see the struct's layout from where they point (a memcpy through them
// is limited to its own bytes). Every line is followed by the facts it
// was resolved from.
// CHECK-LABEL: reverse-mode call in 'g' of 'f', parameters: shadowed shadowed
// CHECK-NEXT:  memory of f:
// CHECK-NEXT:    arg 0: element of 32 bytes: double@8 float@16 ptr@24
// CHECK-NEXT:      facts: {{.*}}double@8 in [0,32){{.*}}ptr64@24 in [0,32)
// CHECK-NEXT:    arg 1: element of 8 bytes: double@0
// CHECK-NEXT:      facts: double@16 double@16+8k
// CHECK-NEXT:    %{{.*}} = alloca %struct.Mixed{{.*}}: element of 32 bytes: double@8 float@16 ptr@24
// CHECK-NEXT:      facts: int32@0 {{.*}} double@8 {{.*}} float@16 {{.*}} ptr64@24 ptr64@24+32k
// CHECK-NEXT:    %{{.*}} = getelementptr {{.*}}%struct.Mixed, ptr %{{.*}}, i32 0, i32 1: element of 32 bytes: double@0 float@8 ptr@16
// CHECK-NEXT:      facts:
// CHECK-NEXT:    %{{.*}} = getelementptr {{.*}}%struct.Mixed, ptr %{{.*}}, i32 0, i32 2: element of 32 bytes: float@0 ptr@8 double@24
// CHECK-NEXT:      facts:
// CHECK-NEXT:    %{{.*}} = getelementptr inbounds double, ptr %1, i64 2: element of 8 bytes: double@0
// CHECK-NEXT:      facts:
// CHECK-NEXT:    %{{.*}} = getelementptr {{.*}}%struct.Mixed, ptr %{{.*}}, i32 0, i32 3: element of 32 bytes: ptr@0 double@16 float@24
// CHECK-NEXT:      facts:
// CHECK-NEXT:    %{{.*}} = load ptr, {{.*}}: element of 8 bytes: double@0
// CHECK-NEXT:      facts: double@0 double@0+8k

// The bare parameters of copy_mixed, typed by the caller that knows: the
// destination is &t in f (h passes its own untyped parameters), and the
// source is what the memcpy copies into it, over the 32 bytes copied.
// CHECK-LABEL: reverse-mode call in 'h' of 'copy_mixed', parameters: shadowed shadowed
// CHECK-NEXT:  memory of copy_mixed:
// CHECK-NEXT:    arg 0: element of 32 bytes: double@8 float@16 ptr@24
// CHECK-NEXT:      facts:
// CHECK-NEXT:    arg 1: element of 32 bytes: double@8 float@16 ptr@24
// CHECK-NEXT:      facts: {{.*}}double@8 in [0,32)
