// Clauses and forms of parallel loops beyond the schedules, in both modes:
// num_threads(3), if() false (a serialized region), private and
// lastprivate, schedule(runtime) (OMP_SCHEDULE=dynamic,2 in the RUN lines)
// and schedule(auto), a reduction over an array section, reduction(-),
// parallel for simd, atomic write/read and capture, a counted loop with a
// long index running down by 3, a user-defined reduction (declare
// reduction on a struct), an inclusive scan (reduction(inscan, +)), and an
// active scalar argument that every thread reads (its adjoint is the sum of
// all threads' contributions).
// RUN: %clang_omp -O0 %s -o %t.O0 -lm
// RUN: env OMP_SCHEDULE=dynamic,2 %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm
// RUN: env OMP_SCHEDULE=dynamic,2 %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define N 50

double __ad_autodiff_d(void *, ...);

static double f_num_threads(double *x, int n) {
  double s = 0;
#pragma omp parallel for num_threads(3) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

static double f_if_false(double *x, int n) {
  double s = 0;
#pragma omp parallel for if (n > 1000) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * x[i];
  return s;
}

/* t private; last = the last iteration's value, read after the loop */
static double f_private(double *x, int n) {
  double t, last = 0, s = 0;
#pragma omp parallel for private(t) lastprivate(last) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    t = x[i] * 3;
    last = t * x[(i + 1) % n];
    s += t * t;
  }
  return s + last * last;
}

static double f_runtime(double *x, int n) {
  double s = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += exp(0.3 * x[i]) * x[(i + 1) % n];
  return s;
}

static double f_auto(double *x, int n) {
  double s = 0;
#pragma omp parallel for schedule(auto) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += exp(0.3 * x[i]) * x[(i + 2) % n];
  return s;
}

static double f_array_reduction(double *x, int n) {
  double h[4] = {0, 0, 0, 0};
#pragma omp parallel for reduction(+ : h[:4])
  for (int i = 0; i < n; i++)
    h[i % 4] += x[i] * x[i];
  return h[0] * h[1] + h[2] * h[3];
}

static double f_minus(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(- : s)
  for (int i = 0; i < n; i++)
    s -= x[i] * x[i] * cos(x[i]);
  return s;
}

static double f_simd(double *x, int n) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * cos(x[i]);
  return s;
}

/* one thread writes a shared value atomically, all read it atomically */
static double f_atomic_read_write(double *x, int n) {
  double shared = 0, s = 0;
#pragma omp parallel reduction(+ : s)
  {
#pragma omp single
    {
#pragma omp atomic write
      shared = x[0] * x[1];
    }
    double v;
#pragma omp atomic read
    v = shared;
    for (int i = omp_get_thread_num(); i < n; i += omp_get_num_threads())
      s += v * x[i];
  }
  return s;
}

/* atomic capture: the old value is taken and the shared sum updated */
static double f_atomic_capture(double *x, int n) {
  double acc = 0, s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    double old;
#pragma omp atomic capture
    {
      old = acc;
      acc += x[i] * x[i];
    }
    s += 0 * old;
  }
  return acc * acc + s;
}

static double f_stride(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 2)
  for (long i = n - 1; i >= 0; i -= 3)
    s += x[i] * x[i] * x[i];
  return s;
}

typedef struct {
  double a, b;
} pair;
#pragma omp declare reduction(padd:pair                                        \
                              : omp_out.a += omp_in.a, omp_out.b += omp_in.b)  \
    initializer(omp_priv = (pair){0, 0})

static double f_declare_reduction(double *x, int n) {
  pair p = {0, 0};
#pragma omp parallel for reduction(padd : p)
  for (int i = 0; i < n; i++) {
    p.a += x[i];
    p.b += x[i] * x[i];
  }
  return p.a * p.b;
}

/* y_i = sum_{k <= i} x_k^2 by an inclusive scan */
static double f_scan(double *x, int n) {
  double run = 0, y[N], s = 0;
#pragma omp parallel for reduction(inscan, + : run)
  for (int i = 0; i < n; i++) {
    run += x[i] * x[i];
#pragma omp scan inclusive(run)
    y[i] = run;
  }
  for (int i = 0; i < n; i++)
    s += y[i] * (i % 3);
  return s;
}

static double f_scalar(double a, double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += sin(a * x[i]) + a * a * x[i];
  return s;
}

static void check_scalar_argument(double *x) {
  double a = 0.7, h = 1e-6, dx[N] = {0}, zero[N] = {0};
  double da = __ad_autodiff_d((void *)f_scalar, a, x, dx, N);
  double fd = (f_scalar(a + h, x, N) - f_scalar(a - h, x, N)) / (2 * h);
  omp_check_close("scalar argument: adjoint", 0, da, fd, 1e-6);
  double t = __ad_fwddiff((void *)f_scalar, a, 1.0, x, zero, N);
  omp_check_close("scalar argument: forward vs reverse", 0, t, da, 1e-10);
}

int main(void) {
  double x[N];
  omp_check_team_size();
  omp_fill(x, N, -1, 1);
  OMP_CHECK_SCALAR("num_threads(3)", f_num_threads, x, N, 1e-6);
  OMP_CHECK_SCALAR("if(false)", f_if_false, x, N, 1e-6);
  OMP_CHECK_SCALAR("private, lastprivate", f_private, x, N, 1e-6);
  OMP_CHECK_SCALAR("schedule(runtime)", f_runtime, x, N, 1e-6);
  OMP_CHECK_SCALAR("schedule(auto)", f_auto, x, N, 1e-6);
  OMP_CHECK_SCALAR("array section reduction", f_array_reduction, x, N, 1e-6);
  OMP_CHECK_SCALAR("reduction(-)", f_minus, x, N, 1e-6);
  OMP_CHECK_SCALAR("parallel for simd", f_simd, x, N, 1e-6);
  OMP_CHECK_SCALAR("atomic write/read", f_atomic_read_write, x, N, 1e-6);
  OMP_CHECK_SCALAR("atomic capture", f_atomic_capture, x, N, 1e-6);
  OMP_CHECK_SCALAR("long index, stride -3", f_stride, x, N, 1e-6);
  OMP_CHECK_SCALAR("declare reduction", f_declare_reduction, x, N, 1e-6);
  OMP_CHECK_SCALAR("inscan reduction", f_scan, x, N, 1e-6);
  check_scalar_argument(x);
  return ad_test_finish();
}
