// Mutable globals as state inside differentiated code: each gets an
// automatic shadow, zero when a derivative is called and reset when it
// returns. Checked in both modes against closed forms, central finite
// differences and each other, and twice in a row (the same answer: no
// tangent or adjoint carried from one call into the next):
//   - a scalar written in f and read in a callee (and by f again), and read
//     and written by functions with no argument at all;
//   - an array written in one loop and read in another;
//   - a struct written by one function and read by another, both called
//     from f;
//   - a global pointer to heap memory f allocates and frees;
//   - a loop accumulating into a global, directly and through a callee;
//   - a global with external linkage that the caller reads after the call
//     (its value is the primal's);
//   - a global copied into the caller's memory with memcpy;
//   - a global only read (a coefficient set by main), never written by the
//     differentiated code: a constant;
//   - an array whose elements a call reads beyond those it wrote: what they
//     hold from an earlier call is a constant (derivative 0), also after a
//     call that wrote them with derivatives (the shadow was reset).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <string.h>

#define N 6

struct d2 {
  double dx, dy;
};
struct d2 __ad_autodiff_d2(void *, ...);
void __ad_autodiff_v(void *, ...);
void __ad_fwddiff_v(void *, ...);

/* 1. A scalar, also read and written by functions that take no argument:
 * f = 2 x^2 y + 2 x^2 + coef x. */
static double state;
static double coef = 0.0; /* set by main: read-only for the derivative */
static double times_state(double y) { return state * y; }
static double get_state(void) { return state; }
static void twice_state(void) { state = 2 * state; }
static double scalar(double x, double y) {
  state = x * x;
  twice_state();
  return times_state(y) + get_state() + coef * x;
}

/* 2. An array: f = sum w_i sin(x_i)^2. */
static double buf[N];
static double array(const double *x, const double *w, int n) {
  for (int i = 0; i < n; i++)
    buf[i] = sin(x[i]);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += w[i] * buf[i] * buf[i];
  return s;
}

/* 3. A struct, written by one function, read by another:
 * f = (x y) * exp(x) + (x + y). */
static struct {
  double prod, sum;
} pair;
static void put_pair(double x, double y) {
  pair.prod = x * y;
  pair.sum = x + y;
}
static double use_pair(double x) { return pair.prod * exp(x) + pair.sum; }
static double structs(double x, double y) {
  put_pair(x, y);
  return use_pair(x);
}

/* 4. A global pointer to memory f allocates: f = sum cos(x_i) x_i. */
static double *heap;
static double heap_sum(const double *x, int n) {
  heap = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    heap[i] = cos(x[i]) * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += heap[i];
  free(heap);
  heap = 0;
  return s;
}

/* 5. Accumulating: f = sum x_i^2 + sum x_i^3 (the second through a callee).
 */
static double acc, acc2;
static void add_cube(double v) { acc2 += v * v * v; }
static double accumulate(const double *x, int n) {
  acc = 0.0;
  acc2 = 0.0;
  for (int i = 0; i < n; i++) {
    acc += x[i] * x[i];
    add_cube(x[i]);
  }
  return acc + acc2;
}

/* 6. External linkage, read by main after the call: f = tanh(x) y. */
double last_value;
double external(double x, double y) {
  last_value = tanh(x);
  return last_value * y;
}

/* 7. f = sum_{i<nr} v_i x_i with v_i = hist_i: the first nw written from x
 * (hist_i = x_i^2), the rest what an earlier call left (constants). */
static double hist[N];
static double partial_write(const double *x, int nw, int nr) {
  for (int i = 0; i < nw; i++)
    hist[i] = x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < nr; i++)
    s += hist[i] * x[i];
  return s;
}

/* 8. Copied out of a global into the caller's memory: out_i = x_i^2. */
static double staging[N];
static void copy_out(const double *x, double *out, int n) {
  for (int i = 0; i < n; i++)
    staging[i] = x[i] * x[i];
  memcpy(out, staging, sizeof staging);
}

static double scalar_x(double x) { return scalar(x, 0.7); }
static double structs_x(double x) { return structs(x, -1.3); }
static double array_i(double *x, int n) {
  static const double w[N] = {1, -2, 0.5, 3, 1.5, -1};
  return array(x, w, n);
}

int main(void) {
  coef = 0.25;
  for (int rep = 0; rep < 2; rep++) { /* twice: the same answers */
    double x = 1.3, y = 0.7;
    struct d2 g = __ad_autodiff_d2((void *)scalar, x, y);
    CHECK_CLOSE(g.dx, 4 * x * y + 4 * x + coef, 1e-14);
    CHECK_CLOSE(g.dy, 2 * x * x, 1e-14);
    CHECK_CLOSE(g.dx, ad_fd1(scalar_x, x), 1e-7);
    CHECK_CLOSE(__ad_fwddiff((void *)scalar, x, 0.3, y, -0.6),
                0.3 * g.dx - 0.6 * g.dy, 1e-14);
    CHECK_CLOSE(state, 2 * x * x, 0); /* the primal's value */

    double xs[N], dxs[N], ws[N], dws[N], ts[N], zero[N];
    for (int i = 0; i < N; i++) {
      xs[i] = 0.3 * i - 0.4;
      ws[i] = 1.0 + 0.5 * i;
      dxs[i] = dws[i] = zero[i] = 0.0;
      ts[i] = 1.0 - 0.2 * i;
    }
    __ad_autodiff_v((void *)array, xs, dxs, ws, dws, __ad_const, N);
    double jv = 0.0, jtw = 0.0;
    for (int i = 0; i < N; i++) {
      double s = sin(xs[i]), c = cos(xs[i]);
      CHECK_CLOSE(dxs[i], 2 * ws[i] * s * c, 1e-14);
      CHECK_CLOSE(dws[i], s * s, 1e-14);
      jtw += dxs[i] * ts[i];
    }
    jv = __ad_fwddiff((void *)array, xs, ts, ws, zero, __ad_const, N);
    CHECK_CLOSE(jv, jtw, 1e-13);
    double fd = ad_fd_array(array_i, xs, N, 2);
    CHECK_CLOSE(2 * 0.5 * sin(xs[2]) * cos(xs[2]), fd, 1e-7);

    double e = exp(x);
    g = __ad_autodiff_d2((void *)structs, x, -1.3);
    CHECK_CLOSE(g.dx, -1.3 * e + x * -1.3 * e + 1, 1e-14);
    CHECK_CLOSE(g.dy, x * e + 1, 1e-14);
    CHECK_CLOSE(g.dx, ad_fd1(structs_x, x), 1e-7);
    CHECK_CLOSE(__ad_fwddiff((void *)structs, x, 1.0, -1.3, 0.0), g.dx,
                1e-14);

    for (int i = 0; i < N; i++)
      dxs[i] = 0.0;
    __ad_autodiff_v((void *)heap_sum, xs, dxs, __ad_const, N);
    for (int i = 0; i < N; i++)
      CHECK_CLOSE(dxs[i], cos(xs[i]) - sin(xs[i]) * xs[i], 1e-14);
    jtw = 0.0;
    for (int i = 0; i < N; i++)
      jtw += dxs[i] * ts[i];
    CHECK_CLOSE(__ad_fwddiff((void *)heap_sum, xs, ts, __ad_const, N), jtw,
                1e-13);
    CHECK_TRUE(heap == 0);

    for (int i = 0; i < N; i++)
      dxs[i] = 0.0;
    __ad_autodiff_v((void *)accumulate, xs, dxs, __ad_const, N);
    jtw = 0.0;
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(dxs[i], 2 * xs[i] + 3 * xs[i] * xs[i], 1e-14);
      jtw += dxs[i] * ts[i];
    }
    CHECK_CLOSE(__ad_fwddiff((void *)accumulate, xs, ts, __ad_const, N), jtw,
                1e-13);

    double t = tanh(x);
    g = __ad_autodiff_d2((void *)external, x, y);
    CHECK_CLOSE(g.dx, (1 - t * t) * y, 1e-14);
    CHECK_CLOSE(g.dy, t, 1e-14);
    CHECK_CLOSE(last_value, t, 0);
    CHECK_CLOSE(__ad_fwddiff((void *)external, x, 1.0, y, 0.0), g.dx, 1e-14);

    double out[N], dout[N], tout[N];
    for (int i = 0; i < N; i++) {
      dxs[i] = 0.0;
      dout[i] = 1.0 + i;
    }
    __ad_autodiff_v((void *)copy_out, xs, dxs, out, dout, __ad_const, N);
    __ad_fwddiff_v((void *)copy_out, xs, ts, out, tout, __ad_const, N);
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(dxs[i], 2 * xs[i] * (1.0 + i), 1e-14);
      CHECK_CLOSE(tout[i], 2 * xs[i] * ts[i], 1e-14);
      CHECK_CLOSE(out[i], xs[i] * xs[i], 0);
    }

    /* Write all of hist with derivatives, then only two elements: the
     * others are constants of the second call. */
    for (int i = 0; i < N; i++)
      dxs[i] = 0.0;
    __ad_autodiff_v((void *)partial_write, xs, dxs, __ad_const, N,
                    __ad_const, N);
    for (int i = 0; i < N; i++)
      CHECK_CLOSE(dxs[i], 3 * xs[i] * xs[i], 1e-14);
    jtw = 0.0;
    for (int i = 0; i < N; i++)
      jtw += 3 * xs[i] * xs[i] * ts[i];
    /* Writes all of hist again, with tangents. */
    CHECK_CLOSE(__ad_fwddiff((void *)partial_write, xs, ts, __ad_const, N,
                             __ad_const, N),
                jtw, 1e-13);
    double old[N];
    for (int i = 0; i < N; i++) {
      old[i] = hist[i];
      xs[i] += 0.1; /* new inputs; hist keeps the old squares */
      dxs[i] = 0.0;
    }
    __ad_autodiff_v((void *)partial_write, xs, dxs, __ad_const, 2,
                    __ad_const, N);
    jtw = 0.0;
    for (int i = 0; i < N; i++) {
      double want = i < 2 ? 3 * xs[i] * xs[i] : old[i];
      CHECK_CLOSE(dxs[i], want, 1e-14);
      jtw += want * ts[i];
    }
    CHECK_CLOSE(__ad_fwddiff((void *)partial_write, xs, ts, __ad_const, 2,
                             __ad_const, N),
                jtw, 1e-13);
  }
  return ad_test_finish();
}
