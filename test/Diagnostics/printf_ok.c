// Positive test: printing differentiated values (printf, puts, fprintf) is no
// obstacle. It compiles without any diagnostic, the derivative is right and
// the primal (so each print) runs exactly once per entry-point call.
// RUN: %clang_ad -O0 -g -fno-crash-diagnostics %s -o %t.O0 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: %run %t.O0 | FileCheck %s
// RUN: %clang_ad -O2 -g -fno-crash-diagnostics %s -o %t.O2 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: %run %t.O2 | FileCheck %s
// COMPILE-NOT: error
// COMPILE-NOT: warning
// COMPILE-NOT: PLEASE submit a bug report
#include <ad.h>
#include <stdio.h>

double f(double x) {
  double y = x * x;
  printf("y = %f\n", y);
  puts("done");
  fprintf(stdout, "x = %.1f\n", x);
  return y * x;
}

int main(void) {
  double d = __ad_autodiff((void *)f, 3.0);
  printf("dfdx = %f\n", d);
  double t = __ad_fwddiff((void *)f, 3.0, 1.0);
  printf("tangent = %f\n", t);
  return 0;
}
// CHECK:      y = 9.000000
// CHECK-NEXT: done
// CHECK-NEXT: x = 3.0
// CHECK-NEXT: dfdx = 27.000000
// CHECK-NEXT: y = 9.000000
// CHECK-NEXT: done
// CHECK-NEXT: x = 3.0
// CHECK-NEXT: tangent = 27.000000
// CHECK-NOT:  {{.}}
