// Link-time optimization: four files each differentiate their own static
// function (reverse and forward, through a loop that needs the tape, calling
// a function defined in a fifth file), linked with the plugin loaded only at
// the link (-Wl,--load-pass-plugin), under ThinLTO (several backend threads:
// --thinlto-jobs=4; an imported caller of __ad_autodiff must not lose the
// body of the static function it differentiates) and full LTO, at -O2 and
// -O0 (ThinLTO's -O0 backends have no extension points), and with the
// plugin at compile time too.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang -O2 -flto=thin -I%src/include -DPART=1 -c %s -o %t/t1.o
// RUN: clang -O2 -flto=thin -I%src/include -DPART=2 -c %s -o %t/t2.o
// RUN: clang -O2 -flto=thin -I%src/include -DPART=3 -c %s -o %t/t3.o
// RUN: clang -O2 -flto=thin -I%src/include -DPART=4 -c %s -o %t/t4.o
// RUN: clang -O2 -flto=thin -I%src/include -c %s -o %t/t0.o
// RUN: clang -O2 -flto=thin -fuse-ld=lld -Wl,--load-pass-plugin=%plugin -Wl,--thinlto-jobs=4 %t/t1.o %t/t2.o %t/t3.o %t/t4.o %t/t0.o -lm -o %t/thin
// RUN: %run %t/thin | FileCheck %s
// RUN: clang -O2 -flto=full -I%src/include -DPART=1 -c %s -o %t/f1.o
// RUN: clang -O2 -flto=full -I%src/include -DPART=2 -c %s -o %t/f2.o
// RUN: clang -O2 -flto=full -I%src/include -DPART=3 -c %s -o %t/f3.o
// RUN: clang -O2 -flto=full -I%src/include -DPART=4 -c %s -o %t/f4.o
// RUN: clang -O2 -flto=full -I%src/include -c %s -o %t/f0.o
// RUN: clang -O2 -flto=full -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t/f1.o %t/f2.o %t/f3.o %t/f4.o %t/f0.o -lm -o %t/full
// RUN: %run %t/full | FileCheck %s
// -O0: ThinLTO imports nothing at -O0, and each file is differentiated on
// its own: there the parts define their own scale().
// RUN: clang -O0 -flto=thin -I%src/include -DPART=1 -DSCALE_HERE -c %s -o %t/t1.o
// RUN: clang -O0 -flto=thin -I%src/include -DPART=2 -DSCALE_HERE -c %s -o %t/t2.o
// RUN: clang -O0 -flto=thin -I%src/include -DPART=3 -DSCALE_HERE -c %s -o %t/t3.o
// RUN: clang -O0 -flto=thin -I%src/include -DPART=4 -DSCALE_HERE -c %s -o %t/t4.o
// RUN: clang -O0 -flto=thin -I%src/include -c %s -o %t/t0.o
// RUN: clang -O0 -flto=thin -fuse-ld=lld -Wl,--load-pass-plugin=%plugin -Wl,--thinlto-jobs=4 %t/t1.o %t/t2.o %t/t3.o %t/t4.o %t/t0.o -lm -o %t/thin0
// RUN: %run %t/thin0 | FileCheck %s
// RUN: clang -O0 -flto=full -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t/t1.o %t/t2.o %t/t3.o %t/t4.o %t/t0.o -lm -o %t/full0
// RUN: %run %t/full0 | FileCheck %s
// The plugin at compile time too (the link then finds no call left; each
// file is differentiated on its own).
// RUN: %clang_ad -O2 -flto=thin -DPART=1 -DSCALE_HERE -c %s -o %t/c1.o
// RUN: %clang_ad -O2 -flto=thin -DPART=2 -DSCALE_HERE -c %s -o %t/c2.o
// RUN: %clang_ad -O2 -flto=thin -DPART=3 -DSCALE_HERE -c %s -o %t/c3.o
// RUN: %clang_ad -O2 -flto=thin -DPART=4 -DSCALE_HERE -c %s -o %t/c4.o
// RUN: %clang_ad -O2 -flto=thin -c %s -o %t/c0.o
// RUN: clang -O2 -flto=thin -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t/c1.o %t/c2.o %t/c3.o %t/c4.o %t/c0.o -lm -o %t/compiled
// RUN: %run %t/compiled | FileCheck %s
//
// CHECK-COUNT-4: part {{[1-4]}}: ok
// CHECK: all ok
#include <ad.h>
#include <math.h>
#include <stdio.h>

#define N 8
#ifdef SCALE_HERE
static double scale(double x) { return sin(x); }
#else
double scale(double x); // in the main file: a callee in another module
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

#ifdef PART
// sum_i scale(x_i) * x_i^PART: through a loop whose products need the tape.
static double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double p = 1;
    for (int k = 0; k < PART; ++k)
      p *= x[i];
    s += scale(x[i]) * p;
  }
  return s;
}
void CAT(gradient, PART)(const double *x, double *dx, int n) {
  __ad_autodiff((void *)energy, x, dx, n);
}
double CAT(tangent, PART)(const double *x, const double *v, int n) {
  return __ad_fwddiff((void *)energy, x, v, n);
}
#else
double scale(double x) { return sin(x); }

typedef void GradientFn(const double *, double *, int);
typedef double TangentFn(const double *, const double *, int);
GradientFn gradient1, gradient2, gradient3, gradient4;
TangentFn tangent1, tangent2, tangent3, tangent4;

int main(void) {
  double x[N], v[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.1 * i;
    v[i] = 1.0 - 0.2 * i;
  }
  int failures = 0;
  for (int part = 1; part <= 4; ++part) {
    double dx[N] = {0}, dot = 0, worst = 0, jv = 0;
    // Direct calls, which ThinLTO imports into this file.
    switch (part) {
    case 1: gradient1(x, dx, N); jv = tangent1(x, v, N); break;
    case 2: gradient2(x, dx, N); jv = tangent2(x, v, N); break;
    case 3: gradient3(x, dx, N); jv = tangent3(x, v, N); break;
    case 4: gradient4(x, dx, N); jv = tangent4(x, v, N); break;
    }
    for (int i = 0; i < N; ++i) {
      // d/dx sin(x) x^p = cos(x) x^p + p sin(x) x^(p-1)
      double want = cos(x[i]) * pow(x[i], part) +
                    part * sin(x[i]) * pow(x[i], part - 1);
      worst = fmax(worst, fabs(dx[i] - want));
      dot += dx[i] * v[i];
    }
    // Forward against reverse: J v = <grad, v>.
    int ok = worst < 1e-12 && fabs(jv - dot) < 1e-12;
    printf("part %d: %s (gradient error %g, J v %.15g, <grad, v> %.15g)\n",
           part, ok ? "ok" : "WRONG", worst, jv, dot);
    failures += !ok;
  }
  if (!failures)
    printf("all ok\n");
  return failures;
}
#endif
