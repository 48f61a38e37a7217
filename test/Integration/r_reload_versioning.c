// Works (keep it working): layers that read and write slices of one buffer
// at offsets computed at run time (primal/ReloadVersioning.cpp). Alias
// analysis cannot tell the slices apart, so without help the gradient tapes
// every input element once per multiply-add. It checks at run time that no
// layer's output reaches back to an earlier layer's input, and then reads
// the inputs back from the buffer; when the slices do overlap it runs the
// copy that tapes them. A softmax normalized in place (p[i] /= s) is read
// back from where it was stored. Each gradient is checked against central
// differences, with the layers laid out apart (the checks pass) and
// overlapping (they fail), at -O0 and -O2 under valgrind.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: remark: gradient of 'layers' checks at run time ({{[0-9]+}} conditions) that no later write changes {{[0-9]+}} loaded or stored values
// The multiply-add loop tapes w and x where the checks fail,
// nothing where they pass (only s, per output); the in-place division
// likewise. The last layer's output, which the final loop reads after
// every write, is read back either way.
// CHECK-DAG: remark: gradient of 'layers' caches 0 bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}}, 4 bytes per iteration of the loop at line {{[0-9]+}} (where its run-time checks pass: 0 bytes per call, 4 bytes per iteration of the loop at line {{[0-9]+}});
// CHECK-DAG: remark: gradient of 'softmax_sum' checks at run time
// CHECK-DAG: remark: gradient of 'softmax_sum' caches {{.*}}4 bytes per iteration of the loop at line {{[0-9]+}}{{.*}} (where its run-time checks pass: 0 bytes per call, 4 bytes per iteration of the loop at line {{[0-9]+}});
// Rows read back in an order that interleaves them: nothing
// cached where the checks pass.
// CHECK-DAG: remark: gradient of 'interleaved' caches 0 bytes per call, 4 bytes per iteration of the loop at line {{[0-9]+}} (where its run-time checks pass: 0 bytes per call);
#include <ad.h>
#include "ad_test.h"

#define N 6
#define L 3
#define ACTS ((L + 1) * (N + 3) + N) /* room for the widest stride */

/* L layers y = s + s^2 / 4, s = W x, in one buffer: layer l reads
 * acts[l * stride ..) and writes acts[(l + 1) * stride ..). With stride >= N
 * the slices are apart; with a smaller one a layer overwrites the tail of
 * its own input as it goes. */
float layers(float *acts, const float *w, int n, int nl, int stride) {
  for (int l = 0; l < nl; l++) {
    const float *x = acts + l * stride;
    float *y = acts + (l + 1) * stride;
    for (int o = 0; o < n; o++) {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
        s += w[l * n * n + o * n + i] * x[i];
      y[o] = s + 0.25f * s * s;
    }
  }
  float r = 0.0f;
  for (int i = 0; i < n; i++)
    r += acts[nl * stride + i] * acts[nl * stride + i];
  return r;
}

/* Rows of a softmax normalized in place, and a weighted sum of them. */
float softmax_sum(float *p, const float *z, const float *c, int rows, int n) {
  float r = 0.0f;
  for (int k = 0; k < rows; k++) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++) {
      p[k * n + i] = expf(z[k * n + i]);
      sum += p[k * n + i];
    }
    for (int i = 0; i < n; i++)
      p[k * n + i] /= sum;
    for (int i = 0; i < n; i++)
      r += c[i] * p[k * n + i] * p[k * n + i];
  }
  return r;
}

/* Rows written, then read back, in loop order t, h while the layout is
 * [h][t] (attention's preatt and att): a later (t, h) writes rows that
 * interleave with this one's, which per-loop intervals cannot separate; a
 * mixed-radix check of the strides can. */
float interleaved(float *a, const float *x, int nh, int nt, int k) {
  float r = 0.0f;
  for (int t = 0; t < nt; t++)
    for (int h = 0; h < nh; h++) {
      float *row = a + (h * nt + t) * k;
      for (int i = 0; i < k; i++)
        row[i] = x[t * k + i] * (float)(h + 1);
      for (int i = 0; i < k; i++)
        r += row[i] * row[i];
    }
  return r;
}

/* A row's mean, stored after another pass over the row (read back from
 * there), and its variance, stored only for even rows (the odd rows' must
 * not be read back from where an even row's went). */
float row_stats(float *out, const float *x, int rows, int n) {
  float r = 0.0f;
  for (int k = 0; k < rows; k++) {
    float m = 0.0f;
    for (int i = 0; i < n; i++)
      m += x[k * n + i];
    m = m / (float)n;
    float v = 0.0f;
    for (int i = 0; i < n; i++) {
      float d = x[k * n + i] - m;
      v += d * d;
    }
    out[k] = m;
    float var = v / (float)n;
    if (k % 2 == 0)
      out[rows + k] = var;
    r += m * var + var / (1.0f + m * m);
  }
  return r;
}

void __ad_autodiff_void(void *, ...);

static float W[L * N * N], X[N], Z[2 * N], C[N];

/* Central differences of f in x[0..n), against the gradient dx; x is
 * restored. */
static void check_fd(double (*f)(const float *), float *x, const float *dx,
                     int n) {
  for (int k = 0; k < n; k++) {
    float saved = x[k], h = 1e-2f;
    x[k] = saved + h;
    double up = f(x);
    x[k] = saved - h;
    double down = f(x);
    x[k] = saved;
    CHECK_CLOSE(dx[k], (up - down) / (2 * h), 2e-2);
  }
}

static double layers_at(const float *w, const float *x0, int stride) {
  float acts[ACTS];
  for (int i = 0; i < ACTS; i++)
    acts[i] = 0;
  for (int i = 0; i < N; i++)
    acts[i] = x0[i];
  return layers(acts, w, N, L, stride);
}

static void check_layers(int stride) {
  float acts[ACTS], dacts[ACTS], dw[L * N * N];
  for (int i = 0; i < ACTS; i++)
    acts[i] = dacts[i] = 0;
  for (int i = 0; i < N; i++)
    acts[i] = X[i];
  for (int i = 0; i < L * N * N; i++)
    dw[i] = 0;
  __ad_autodiff_void((void *)layers, acts, dacts, W, dw, N, L, stride);
  float w[L * N * N], x[N];
  for (int k = 0; k < L * N * N + N; k++) {
    for (int i = 0; i < L * N * N; i++)
      w[i] = W[i];
    for (int i = 0; i < N; i++)
      x[i] = X[i];
    float *v = k < L * N * N ? &w[k] : &x[k - L * N * N];
    float saved = *v, h = 1e-2f;
    *v = saved + h;
    double up = layers_at(w, x, stride);
    *v = saved - h;
    double down = layers_at(w, x, stride);
    double fd = (up - down) / (2 * h);
    double ad = k < L * N * N ? dw[k] : dacts[k - L * N * N];
    if (!ad_test_close(ad, fd, 2e-2, 2e-3))
      fprintf(stderr, "layers stride %d: d/d[%d] ad %g fd %g\n", stride, k,
              ad, fd);
    CHECK_CLOSE(ad, fd, 2e-2);
  }
}

static double softmax_at(const float *z) {
  float p[2 * N];
  return softmax_sum(p, z, C, 2, N);
}

static void check_softmax(void) {
  float p[2 * N], dp[2 * N], z[2 * N], dz[2 * N];
  for (int i = 0; i < 2 * N; i++) {
    z[i] = Z[i];
    dp[i] = dz[i] = 0;
  }
  __ad_autodiff_void((void *)softmax_sum, p, dp, z, dz, __ad_const, C, 2, N);
  check_fd(softmax_at, z, dz, 2 * N);
}

static double interleaved_at(const float *x) {
  float a[3 * 4 * 5];
  return interleaved(a, x, 3, 4, 5);
}

static void check_interleaved(void) {
  float a[3 * 4 * 5], da[3 * 4 * 5], x[4 * 5], dx[4 * 5];
  for (int i = 0; i < 3 * 4 * 5; i++)
    da[i] = 0;
  for (int i = 0; i < 4 * 5; i++) {
    x[i] = (float)ad_test_uniform(-1, 1);
    dx[i] = 0;
  }
  __ad_autodiff_void((void *)interleaved, a, da, x, dx, 3, 4, 5);
  check_fd(interleaved_at, x, dx, 4 * 5);
}

static double row_stats_at(const float *x) {
  float out[2 * 5];
  return row_stats(out, x, 5, 4);
}

static void check_row_stats(void) {
  float out[2 * 5], dout[2 * 5], x[5 * 4], dx[5 * 4];
  for (int i = 0; i < 2 * 5; i++)
    dout[i] = 0;
  for (int i = 0; i < 5 * 4; i++) {
    x[i] = (float)ad_test_uniform(-1, 1);
    dx[i] = 0;
  }
  __ad_autodiff_void((void *)row_stats, out, dout, x, dx, 5, 4);
  check_fd(row_stats_at, x, dx, 5 * 4);
}

int main(void) {
  for (int i = 0; i < L * N * N; i++)
    W[i] = (float)ad_test_uniform(-0.5, 0.5);
  for (int i = 0; i < N; i++) {
    X[i] = (float)ad_test_uniform(-1, 1);
    C[i] = (float)ad_test_uniform(0.5, 1.5);
  }
  for (int i = 0; i < 2 * N; i++)
    Z[i] = (float)ad_test_uniform(-2, 2);
  check_layers(N);     /* apart: the reloading copy */
  check_layers(N + 3); /* apart, with gaps */
  check_layers(N / 2); /* overlapping: the taping copy */
  check_softmax();
  check_interleaved();
  check_row_stats();
  return ad_test_finish();
}
