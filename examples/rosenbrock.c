/* rosenbrock.c - reverse mode: the gradient of the n-dimensional Rosenbrock
 * function, checked against central finite differences.
 *
 *   f(x) = sum_{i<n-1} 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
 *
 * Build and run (make demo does this):
 *   clang-22 -O2 -fpass-plugin=build/ADPlugin.so -Iinclude \
 *     examples/rosenbrock.c -lm && ./a.out
 */
#include <ad.h>
#include <math.h>
#include <stdio.h>

#define N 10

/* An ordinary C function: nothing in it knows about differentiation. */
static double rosenbrock(const double *x, int n) {
  double sum = 0.0;
  for (int i = 0; i + 1 < n; ++i) { /* the plugin never needs to know n */
    double a = x[i + 1] - x[i] * x[i];
    double b = 1.0 - x[i];
    sum += 100.0 * a * a + b * b;
  }
  return sum;
}

/* d f / d x[i] by a central difference: (f(x + h e_i) - f(x - h e_i)) / 2h. */
static double central_difference(double *x, int n, int i) {
  double saved = x[i], h = 1e-6 * fmax(1.0, fabs(saved));
  x[i] = saved + h;
  double up = rosenbrock(x, n);
  x[i] = saved - h;
  double down = rosenbrock(x, n);
  x[i] = saved;
  return (up - down) / (2 * h);
}

int main(void) {
  double x[N], grad[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5 + 0.1 * i * (i % 2 ? -1 : 1); /* an arbitrary point */
    grad[i] = 0.0; /* reverse mode adds (+=) adjoints into the shadow */
  }

  /* One call computes the whole gradient:
   *   __ad_dup, x, grad   x is differentiated; its adjoints go into grad
   *   __ad_const, N       n is an integer; const is also its default
   * f's return value is the output, seeded with 1.0. The call itself
   * returns the adjoints of by-value doubles; f has none, so we ignore it. */
  __ad_autodiff((void *)rosenbrock, __ad_dup, x, grad, __ad_const, N);

  int failures = 0;
  printf("f(x) = %.10g\n", rosenbrock(x, N));
  printf("%3s %18s %18s %12s\n", "i", "AD gradient", "finite diff", "difference");
  for (int i = 0; i < N; ++i) {
    double fd = central_difference(x, N, i);
    double diff = grad[i] - fd;
    int bad = fabs(diff) > 1e-5 * fmax(1.0, fabs(fd));
    failures += bad;
    printf("%3d %18.10f %18.10f %12.2e%s\n", i, grad[i], fd, diff,
           bad ? "  MISMATCH" : "");
  }
  printf(failures ? "FAILED: %d mismatches\n" : "all %d components match\n",
         failures ? failures : N);
  return failures != 0;
}
