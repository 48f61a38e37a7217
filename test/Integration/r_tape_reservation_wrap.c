// Works (keep it working): the tape reservation's arithmetic saturates
// instead of wrapping. The nest's trip counts are known before it runs and
// their product times the record size is 2^64 + 2^28 bytes: wrapped, that
// asked realloc for 256 MiB (550 GB at -O0), sizes that nothing records.
// Saturated, the request is past what can be allocated and the reservation
// is ignored; the pushes grow the tape. The nest never runs that long: the
// fourth inner iteration checks the largest realloc so far (Inputs/tape_hook.c
// wraps realloc) and exits.
// RUN: %clang_ad -O0 %s %S/Inputs/tape_hook.c -Wl,--wrap=realloc -o %t.O0 -lm && %run %t.O0 | FileCheck %s
// RUN: %clang_ad -O2 %s %S/Inputs/tape_hook.c -Wl,--wrap=realloc -o %t.O2 -lm -Rpass=ad 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %run %t.O2 | FileCheck %s
// REMARK: gradient of 'huge' caches 0 bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}};
// CHECK: largest tape request below 1 MiB
#include <ad.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

size_t ad_hook_largest_request(void);

/* Inactive (integers only): stops the program inside the gradient. */
__attribute__((noinline)) static void maybe_stop(long i, long j) {
  if (i == 0 && j == 3) {
    size_t largest = ad_hook_largest_request();
    printf("largest tape request %s 1 MiB\n",
           largest < (1 << 20) ? "below" : "NOT below");
    exit(largest < (1 << 20) ? 0 : 1);
  }
}

static double huge(double *x, long n, long m) {
  double s = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++) {
      s = sin(s + x[j & 7]);
      maybe_stop(i, j);
    }
  return s;
}

int main(void) {
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dx[8] = {0};
  long n = 1L << 25, m = (1L << 36) + 1; /* 8 n m = 2^64 + 2^28 */
  __ad_autodiff((void *)huge, x, dx, n, m);
  return 2; /* not reached */
}
