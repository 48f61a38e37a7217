// Reverse mode: f -> g -> h with pointers (and offset pointers) passed down non-inlined calls.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define N 8
#define MAXN 16
#define NOINLINE __attribute__((noinline))

static NOINLINE double h(const double *p) { return p[0] * p[1]; }

/* y_i = h(x + i) = x_i x_{i+1} for i < n-1 */
static NOINLINE void g(const double *x, double *y, int n) {
  for (int i = 0; i + 1 < n; i++)
    y[i] = h(x + i);
}

/* v_i <- a v_i: an active scalar and an in-place update in a callee */
static NOINLINE void scale(double *v, int n, double a) {
  for (int i = 0; i < n; i++)
    v[i] *= a;
}

static NOINLINE double sum_sin(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(v[i]);
  return s;
}

/* sum_i sin(a x_i x_{i+1}) */
static double f(double *x, double a, int n) {
  double y[MAXN];
  g(x, y, n);
  scale(y, n - 1, a);
  return sum_sin(y, n - 1);
}

static double A = 1.3;
static double f_x(double *x, int n) { return f(x, A, n); }
static double X[N];
static double f_a(double *a, int n) { (void)n; return f(X, a[0], N); }

int main(void) {
  double dx[N] = {0};
  for (int i = 0; i < N; i++)
    X[i] = ad_test_uniform(-1.2, 1.2);

  double da = __ad_autodiff((void *)f, X, dx, A, N);

  double want_a = 0;
  for (int i = 0; i + 1 < N; i++)
    want_a += cos(A * X[i] * X[i + 1]) * X[i] * X[i + 1];
  double a = A;
  CHECK_CLOSE(da, want_a, 1e-10);
  CHECK_CLOSE(da, ad_fd_array(f_a, &a, 1, 0), 1e-5);
  for (int j = 0; j < N; j++) {
    double want = 0;
    if (j + 1 < N)
      want += cos(A * X[j] * X[j + 1]) * A * X[j + 1];
    if (j > 0)
      want += cos(A * X[j - 1] * X[j]) * A * X[j - 1];
    CHECK_CLOSE(dx[j], want, 1e-10);
    CHECK_CLOSE(dx[j], ad_fd_array(f_x, X, N, j), 1e-5);
  }

  /* Differentiate a callee directly too: g writes y, seed w on y. */
  double y[N], dy[N], w[N], dx2[N] = {0};
  for (int i = 0; i < N; i++) {
    dy[i] = w[i] = ad_test_uniform(-1, 1);
    y[i] = 0;
  }
  __ad_autodiff((void *)g, X, dx2, y, dy, N);
  for (int j = 0; j < N; j++) {
    double want = (j + 1 < N ? w[j] * X[j + 1] : 0) + (j > 0 ? w[j - 1] * X[j - 1] : 0);
    CHECK_CLOSE(dx2[j], want, 1e-10);
    if (j + 1 < N) {
      CHECK_TRUE(dy[j] == 0.0);
      CHECK_CLOSE(y[j], X[j] * X[j + 1], 1e-15);
    } else {
      CHECK_TRUE(dy[j] == w[j]); /* g never writes y[n-1] */
    }
  }

  return ad_test_finish();
}
