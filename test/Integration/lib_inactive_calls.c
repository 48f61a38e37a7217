// Calls that carry no floating-point data inside differentiated code, in C:
// printf and fprintf given a differentiated value (it only flows out), a
// character buffer that only library functions without a body touch (strcpy,
// strcat: no rows; sprintf, puts: inactive rows), which therefore needs no
// shadow and does not make those calls errors, and a helper that stores its
// pointer parameter into differentiated memory called with NULL (passed with
// a null shadow, so the store keeps the shadow structure). Checked against
// closed forms, forward against reverse, and the printed text.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0 | FileCheck %s
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2 | FileCheck %s
#include <ad.h>
#include "ad_test.h"
#include <string.h>

/* x^3, with the value printed three ways */
double chatty(double x) {
  char buf[64];
  strcpy(buf, "cube of ");
  strcat(buf, "x");
  printf("%s: x=%.2f\n", buf, x);
  fprintf(stdout, "x^2=%.2f\n", x * x);
  sprintf(buf, "%.3f", x * x * x);
  puts(buf);
  return x * x * x;
}

struct node {
  double v;
  struct node *next;
};
__attribute__((noinline)) static void link(struct node *n, struct node *next) {
  n->next = next;
}
/* a -> b -> NULL with a.v = x, b.v = x^2: sum of v * position = x + 2x^2 */
double linked(double x) {
  struct node a, b;
  a.v = x;
  b.v = x * x;
  link(&a, &b);
  link(&b, NULL);
  double s = 0;
  int k = 1;
  for (struct node *n = &a; n; n = n->next)
    s += n->v * (k++);
  return s;
}

int main(void) {
  double x = 1.5;
  // CHECK: cube of x: x=1.50
  // CHECK-NEXT: x^2=2.25
  // CHECK-NEXT: 3.375
  CHECK_CLOSE(__ad_autodiff((void *)chatty, x), 3 * x * x, 1e-14);
  // CHECK-NEXT: cube of x: x=1.50
  // CHECK-NEXT: x^2=2.25
  // CHECK-NEXT: 3.375
  CHECK_CLOSE(__ad_fwddiff((void *)chatty, x, 1.0), 3 * x * x, 1e-14);
  CHECK_CLOSE(__ad_autodiff((void *)linked, x), 1 + 4 * x, 1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)linked, x, 1.0), 1 + 4 * x, 1e-14);
  // CHECK-NOT: {{.}}
  return ad_test_finish();
}
