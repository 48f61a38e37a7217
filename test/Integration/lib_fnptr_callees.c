// Library functions passed as function pointers: sin, exp and tanh (which
// have rows in the rule table) handed to an apply routine and kept in a
// table the caller fills at run time, beside a function this file defines;
// malloc passed as an allocator parameter (an allocation row); and a choice
// between two known math functions (a closed set: the pointer can be no
// other). Each indirect call becomes a choice between direct calls of them
// (docs/CXX.md). Checked against closed forms, central differences and
// forward against reverse.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <math.h>
#include <stdlib.h>

typedef double (*unary_fn)(double);
typedef void *(*alloc_fn)(size_t);

static double square(double x) { return x * x; }

__attribute__((noinline)) double apply(unary_fn f, double x) { return f(x); }

/* sum_k w_k * table[k](x), the table filled by the caller. */
double mix(double x, const unary_fn *table, int n) {
  double s = 0;
  for (int k = 0; k < n; k++)
    s += (k + 1) * table[k](x);
  return s;
}

double via_apply(double x) { return apply(sin, x) + apply(exp, 2 * x); }

/* A buffer from an allocator the caller passes. */
double buffered(double x, alloc_fn alloc) {
  double *t = alloc(2 * sizeof(double));
  t[0] = x * x;
  t[1] = sin(x);
  double r = t[0] * t[1];
  free(t);
  return r;
}

/* A choice between two known functions. */
double chosen(double x, int k) {
  unary_fn f = k ? tanh : sin;
  return f(x) * x;
}

static double mix_fd(double x) {
  unary_fn table[3] = {sin, square, tanh};
  return mix(x, table, 3);
}
static double buffered_fd(double x) { return buffered(x, malloc); }

int main(void) {
  unary_fn table[3] = {sin, square, tanh};
  volatile int one = 1;
  for (double x = -1.0; x <= 1.0; x += 0.5) {
    double t = tanh(x);
    double want_mix = cos(x) + 2 * 2 * x + 3 * (1 - t * t);
    double d = __ad_autodiff((void *)mix, x, __ad_const, table, __ad_const, 3);
    CHECK_CLOSE(d, want_mix, 1e-13);
    CHECK_CLOSE(d, ad_fd1(mix_fd, x), 1e-6);
    CHECK_CLOSE(__ad_fwddiff((void *)mix, x, 1.0, __ad_const, table,
                             __ad_const, 3),
                d, 1e-13);

    double want_apply = cos(x) + 2 * exp(2 * x);
    CHECK_CLOSE(__ad_autodiff((void *)via_apply, x), want_apply, 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)via_apply, x, 1.0), want_apply, 1e-13);

    double want_buf = 2 * x * sin(x) + x * x * cos(x);
    d = __ad_autodiff((void *)buffered, x, __ad_const, malloc);
    CHECK_CLOSE(d, want_buf, 1e-13);
    CHECK_CLOSE(d, ad_fd1(buffered_fd, x), 1e-6);
    CHECK_CLOSE(__ad_fwddiff((void *)buffered, x, 1.0, __ad_const, malloc), d,
                1e-13);

    CHECK_CLOSE(__ad_autodiff((void *)chosen, x, __ad_const, (int)one),
                (1 - t * t) * x + t, 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)chosen, x, 1.0, __ad_const, 0),
                cos(x) * x + sin(x), 1e-13);
  }
  return ad_test_finish();
}
