// Mutable globals in differentiated code get shadows (docs/DESIGN.md,
// "Mutable globals"), but two uses stay errors, in both modes:
//   - an output: a differentiated value is stored in a global and nothing
//     in the differentiated call reads it back (t, and through a callee,
//     u): only code outside the call could read it, and its derivative
//     would be lost;
//   - a previous call's state: a global that differentiated code writes
//     derivatives into is read before the call writes it (the scalar h in
//     step, a field of a struct in k): the value may be one an earlier
//     differentiated call left there.
// A global the call writes and then reads back (f) is fine. (At -O2, put is
// inlined into u, and the optimizer splits s2 into one global per field.)
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <math.h>

double saved;
double saved_fwd;
double saved_by_callee;

double f(double x) {
  saved = x * x;
  return saved + x;
}

double t(double x) {
  // CHECK-DAG: {{.*}}store_to_global.c:[[@LINE+1]]:13: error: cannot differentiate 't': a differentiated value is stored in global 'saved_fwd' and nothing in the differentiated call reads it back: the global is an output, whose derivative would be lost; hint: return the value or write it through an __ad_dup pointer; a global the call only uses as scratch must be read after it is written
  saved_fwd = x * 3.0;
  return x;
}

static void put(double v) {
  // CHECK-DAG: {{.*}}store_to_global.c:[[@LINE+1]]:19: error: cannot differentiate '{{put|u}}': a differentiated value is stored in global 'saved_by_callee' and nothing in the differentiated call reads it back: the global is an output, whose derivative would be lost; hint: return the value or write it through an __ad_dup pointer; a global the call only uses as scratch must be read after it is written
  saved_by_callee = v;
}
double u(double x) {
  put(sin(x));
  return x;
}

static double h;
double step(double x) {
  // CHECK-DAG: {{.*}}store_to_global.c:[[@LINE+1]]:12: error: cannot differentiate 'step': global 'h' is read before the differentiated call writes it, while differentiated code writes derivatives into it: the value read may be one an earlier differentiated call left, whose derivative cannot reach this call; hint: pass the state as an __ad_dup argument, or write the global in the call before reading it
  h = tanh(h + x);
  return h;
}

static struct {
  double a, b;
} s2;
double k(double x) {
  // CHECK-DAG: {{.*}}store_to_global.c:[[@LINE+1]]:17: error: cannot differentiate 'k': global 's2{{(\.0)?}}' is read before the differentiated call writes it, while differentiated code writes derivatives into it: the value read may be one an earlier differentiated call left, whose derivative cannot reach this call; hint: pass the state as an __ad_dup argument, or write the global in the call before reading it
  double r = s2.a * x;
  s2.a = x;
  s2.b = r;
  return r + s2.b;
}

double g(double x) { return __ad_autodiff((void *)f, x); }
double i(double x) { return __ad_fwddiff((void *)t, x, 1.0); }
double j(double x) { return __ad_autodiff((void *)u, x); }
double l(double x) { return __ad_autodiff((void *)step, x); }
double m(double x) { return __ad_fwddiff((void *)k, x, 1.0); }
// CHECK: 4 errors generated.
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
