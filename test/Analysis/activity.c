// print<ad-activity>: for each differentiation call, which values carry
// derivatives. "varied" values get derivative code; "unused" ones depend on
// the active inputs but reach no output (a value only printed, a value only
// tested in a branch), so they get none; integer code and loop counters are
// not listed at all; "shadowed" pointers lead to differentiated memory.
// RUN: %c_to_ir %s -o %t.ll
// RUN: %opt_ad -passes='function(sroa,mem2reg),print<ad-activity>' %t.ll -disable-output 2>&1 | FileCheck %s
// And the reverse-mode derivative indeed computes nothing for them: the
// reverse sweep has no multiplication by 3 (the adjoint of x * 3.0).
// RUN: %opt_ad -passes='function(sroa,mem2reg),ad' %t.ll -S | FileCheck %s --check-prefix=GRAD
#include <ad.h>
#include <stdio.h>

struct S {
  int n;
  double w;
  double *p;
};

double f(struct S *s, double x, int k) {
  double logged = x * 3.0;
  printf("%g\n", logged);
  double y = 0;
  for (int i = 0; i < k; i++)
    y += s->w * x + s->p[i];
  if (x * x > 2.0)
    y *= 2;
  return y;
}

double g(struct S *s, struct S *ds, double x) {
  return __ad_autodiff((void *)f, s, ds, x, 3);
}

// CHECK-LABEL: reverse-mode call in 'g' of 'f', parameters: shadowed active const
// CHECK-NEXT:  activity of f:
// CHECK-NEXT:    arg 0 shadowed
// CHECK-NEXT:    arg 1 varied
// CHECK-NEXT:    arg 2{{$}}
// CHECK-NEXT:    unused: {{.*}} = fmul double %1, 3.000000e+00
// CHECK-NEXT:    varied: {{.*}} = phi double [ 0.000000e+00, %{{.*}} ], [ [[SUM:%.*]], %{{.*}} ]
// CHECK-NEXT:    shadowed: {{.*}} = getelementptr inbounds nuw %struct.S, ptr %0, i32 0, i32 1
// CHECK-NEXT:    varied: {{.*}} = load double
// CHECK-NEXT:    shadowed: {{.*}} = getelementptr inbounds nuw %struct.S, ptr %0, i32 0, i32 2
// CHECK-NEXT:    shadowed: {{.*}} = load ptr
// CHECK-NEXT:    shadowed: {{.*}} = getelementptr inbounds double
// CHECK-NEXT:    varied: {{.*}} = load double
// CHECK-NEXT:    varied: {{.*}} = call double @llvm.fmuladd.f64(
// CHECK-NEXT:    varied: [[SUM]] = fadd double
// CHECK-NEXT:    unused: {{.*}} = fmul double %1, %1
// CHECK-NEXT:    varied: {{.*}} = fmul double %{{.*}}, 2.000000e+00
// CHECK-NEXT:    varied: {{.*}} = phi double
// CHECK-NOT:     {{varied|unused|shadowed}}

// GRAD-LABEL: define internal {{.*}} @f.ad.gradient(
// GRAD:       fmul double %1, 3.000000e+00
// GRAD:       rev.
// GRAD-NOT:   3.000000e+00
// GRAD:       ret
