// Works (keep it working): the tape buffer a gradient keeps for the next
// call of its thread (docs/OPTIONS.md, "Run-time symbols"). Four threads
// each take gradients in a loop, of tapes from 8 bytes to 64 KiB in a
// varying order (so the cache holds one size and a call needs another),
// and a gradient of a gradient (the inner gradient runs while the outer
// one's tape is in use, and caches its buffer for the next inner call).
// The main thread does the same while they run. Under valgrind: no buffer
// is used after it is given to another tape or freed, and the threads'
// cached buffers are freed when they exit (a "definitely lost" leak fails
// the test); the main thread's stays cached until the process ends.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm -pthread && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm -pthread && %run %t.O2
#include <ad.h>
#include <pthread.h>
#include "ad_test.h"

/* A running value through n sines: the tape holds 8 bytes per iteration.
 * (Scalar arguments: a gradient with pointer arguments in a module with a
 * gradient of a gradient fails to compile at -O0, a bug of its own.) */
static double chain(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s = sin(s + x);
  return s;
}

/* x^k for the first k with x^k >= 50 (a tape record per iteration);
 * f'' = k (k-1) x^(k-2). */
static double power_until(double x) {
  double p = 1;
  while (p < 50)
    p *= x;
  return p;
}
static double power_until_r(double x) {
  return __ad_autodiff((void *)power_until, x);
}

#define MAXN 8192
#define ROUNDS 40

/* Whether the second derivative of power_until at v is wrong. */
__attribute__((noinline)) static int second_derivative_fails(double v) {
  double k = 0;
  for (double p = 1; p < 50; p *= v)
    k++;
  double d2 = __ad_autodiff((void *)power_until_r, v);
  return !ad_test_close(d2, k * (k - 1) * pow(v, k - 2), 1e-9, 1e-12);
}

static void *work(void *arg) {
  int id = (int)(long)arg, failed = 0;
  for (int r = 0; r < ROUNDS; r++) {
    int n = 1 + (r * 2654435761u + id * 40503u) % MAXN;
    double x = 0.3 + 0.01 * id, h = 1e-6;
    double d = __ad_autodiff((void *)chain, x, n);
    double fd = (chain(x + h, n) - chain(x - h, n)) / (2 * h);
    failed += !ad_test_close(d, fd, 1e-6, 1e-9);
    failed += second_derivative_fails(1.1 + 0.01 * (r % 7));
  }
  return (void *)(long)failed;
}

int main(void) {
  pthread_t t[4];
  for (long i = 0; i < 4; i++)
    CHECK_TRUE(pthread_create(&t[i], 0, work, (void *)(i + 1)) == 0);
  CHECK_TRUE(work((void *)0) == 0);
  for (int i = 0; i < 4; i++) {
    void *failed;
    CHECK_TRUE(pthread_join(t[i], &failed) == 0);
    CHECK_TRUE(failed == 0);
  }
  return ad_test_finish();
}
