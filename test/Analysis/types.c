// print<ad-types>: for each differentiation call, what the memory behind
// each shadowed pointer holds (every scalar of one element at its byte
// offset: floats of which width, integers, pointers), deduced from allocations, typed GEPs, accesses,
// TBAA tags and, for bare pointer parameters, from what the callers pass;
// and which integers carry the bits of a float (a double copied as an i64;
// see test/fuzz/regressions/seed_42_snumo2_tbaa.ll).
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

// m is g's parameter, which nothing types: f's own uses (a memcpy) do not
// say either, so it is unknown (a memcpy from it in reverse mode would be
// an error; the one here is typed by its other side, &t).
// CHECK-LABEL: reverse-mode call in 'g' of 'f', parameters: shadowed shadowed
// CHECK-NEXT:  memory of f:
// CHECK-NEXT:    arg 0: unknown
// CHECK-NEXT:    arg 1: element of 8 bytes: double@0
// CHECK-NEXT:    %{{.*}} = alloca %struct.Mixed{{.*}}: element of 32 bytes: i32@0 double@8 float@16 ptr@24
// CHECK-NEXT:    %{{.*}} = getelementptr {{.*}}%struct.Mixed, ptr %{{.*}}, i32 0, i32 1: element of 8 bytes: double@0
// CHECK-NEXT:    %{{.*}} = getelementptr {{.*}}%struct.Mixed, ptr %{{.*}}, i32 0, i32 2: element of 4 bytes: float@0
// CHECK-NEXT:    %{{.*}} = getelementptr inbounds double, ptr %1, i64 2: element of 8 bytes: double@0
// CHECK-NEXT:    %{{.*}} = getelementptr {{.*}}%struct.Mixed, ptr %{{.*}}, i32 0, i32 3: element of 8 bytes: ptr@0
// CHECK-NEXT:    %{{.*}} = load ptr, {{.*}}: element of 8 bytes: double@0

// The bare parameters of copy_mixed, typed by the caller that knows: the
// destination is &t in f; h passes its own untyped parameters and abstains,
// and so does f for the source (m). One typed side is enough for the copy.
// CHECK-LABEL: reverse-mode call in 'h' of 'copy_mixed', parameters: shadowed shadowed
// CHECK-NEXT:  memory of copy_mixed:
// CHECK-NEXT:    arg 0: element of 32 bytes: i32@0 double@8 float@16 ptr@24
// CHECK-NEXT:    arg 1: unknown
