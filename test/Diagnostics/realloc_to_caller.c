// Reverse mode cannot yet follow memory reallocated inside the function
// whose new address the caller keeps (a growing vector passed by pointer):
// the adjoints of what the old block held would stay where the caller no
// longer looks. It is an error at the reallocation, not a caller left
// pointing at freed memory. Forward mode differentiates it.
// At -O0 the type analysis cannot see the buffer's type at the realloc, and
// that is the error there.
// RUN: not %clang_ad -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0 --implicit-check-not=error:
// RUN: not %clang_ad -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang_ad -O2 -DFORWARD %s -o %t && %run %t | FileCheck %s --check-prefix=FWD
#include <ad.h>
#include <stdio.h>
#include <stdlib.h>

struct vec {
  double *data;
  long len, cap;
};

double grow(struct vec *v, double x) {
  for (int i = 0; i < 5; ++i) {
    if (v->len == v->cap) {
      v->cap = 2 * v->cap + 1;
      // O0: realloc_to_caller.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'grow': cannot tell which bytes of this reallocated memory hold floating-point data
      // CHECK: realloc_to_caller.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'grow': memory reallocated here is the caller's after the call (its address is stored where the caller sees it), which reverse mode does not support; hint: reserve the final size before the call, or use forward mode (__ad_fwddiff)
      v->data = realloc(v->data, v->cap * sizeof(double));
    }
    v->data[v->len++] = x * i;
  }
  double s = 0;
  for (long i = 0; i < v->len; ++i)
    s += v->data[i] * v->data[i];
  return s;
}

int main(void) {
  struct vec v = {malloc(sizeof(double)), 1, 1};
  struct vec dv = {calloc(1, sizeof(double)), 1, 1};
  v.data[0] = 2.0;
#ifdef FORWARD
  dv.data[0] = 1.0; // d/dt of v.data[0], and of x below
  double t = __ad_fwddiff((void *)grow, &v, &dv, 3.0, 1.0);
  // FWD: tangent 184
  printf("tangent %g\n", t); // 2*2*1 + 2*3*(0+1+4+9+16)*1
#else
  printf("%g\n", __ad_autodiff((void *)grow, &v, &dv, 3.0));
#endif
  free(v.data);
  free(dv.data);
  return 0;
}
