// llm.c-style layers with llm.c's OpenMP pragmas, in float, in both modes: a
// layernorm (parallel over the B*T positions), a matmul with bias
// (collapse(2) over B and T, as llm.c's matmul_forward), GELU, a second
// matmul, and a softmax cross-entropy loss whose rows are a reduction(+).
// The gradient of the loss with respect to all the weights is checked
// against finite differences (float, step 1e-2) and forward mode.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define B 2
#define T 5
#define C 8
#define OC 12
#define V 7
/* the weights: w1[OC][C], b1[OC], gamma[C], beta[C], w2[V][OC] */
#define NW (OC * C + OC + C + C + V * OC)

static void matmul(float *out, const float *inp, const float *w,
                   const float *bias, int cin, int cout) {
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      const float *x = inp + b * T * cin + t * cin;
      float *o = out + b * T * cout + t * cout;
      for (int k = 0; k < cout; k++) {
        float val = bias ? bias[k] : 0.0f;
        for (int i = 0; i < cin; i++)
          val += x[i] * w[k * cin + i];
        o[k] = val;
      }
    }
}

static void layernorm(float *out, const float *inp, const float *gamma,
                      const float *beta) {
#pragma omp parallel for
  for (int n = 0; n < B * T; n++) {
    const float *x = inp + n * C;
    float m = 0, v = 0;
    for (int i = 0; i < C; i++)
      m += x[i];
    m /= C;
    for (int i = 0; i < C; i++)
      v += (x[i] - m) * (x[i] - m);
    float s = 1.0f / sqrtf(v / C + 1e-5f);
    for (int i = 0; i < C; i++)
      out[n * C + i] = (x[i] - m) * s * gamma[i] + beta[i];
  }
}

static void gelu(float *out, const float *inp, int n) {
  const float k = 0.7978845608f; /* sqrt(2 / pi) */
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    float x = inp[i];
    out[i] = 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
  }
}

static const int targets[B * T] = {1, 3, 0, 6, 2, 5, 4, 1, 0, 3};

/* the mean cross-entropy of the 2-layer model on the inputs x */
static float model(float *p, float *x) {
  float *w1 = p, *b1 = w1 + OC * C, *gamma = b1 + OC, *beta = gamma + C;
  float *w2 = beta + C;
  float ln[B * T * C], h[B * T * OC], a[B * T * OC], logits[B * T * V];
  float loss = 0;
  layernorm(ln, x, gamma, beta);
  matmul(h, ln, w1, b1, C, OC);
  gelu(a, h, B * T * OC);
  matmul(logits, a, w2, 0, OC, V);
#pragma omp parallel for reduction(+ : loss)
  for (int n = 0; n < B * T; n++) {
    float *l = logits + n * V, mx = -1e30f, s = 0;
    for (int v = 0; v < V; v++)
      mx = fmaxf(mx, l[v]);
    for (int v = 0; v < V; v++)
      s += expf(l[v] - mx);
    loss += logf(s) + mx - l[targets[n]];
  }
  return loss / (B * T);
}

int main(void) {
  static float x[B * T * C], dx[B * T * C], tx[B * T * C];
  float p[NW], dp[NW] = {0}, v[NW];
  omp_check_team_size();
  omp_fillf(x, B * T * C, -1, 1);
  omp_fillf(p, NW, -0.5, 0.5);
  omp_fillf(v, NW, -1, 1);
  __ad_autodiff_void((void *)model, p, dp, x, dx);
  float t = __ad_fwddiff_f((void *)model, p, v, x, tx);
  omp_check_close("forward vs reverse", 0, t, omp_dotf(v, dp, NW), 1e-4);
  for (int i = 0; i < NW; i++) {
    float saved = p[i], h = 1e-2f;
    p[i] = saved + h;
    double fp = model(p, x);
    p[i] = saved - h;
    double fm = model(p, x);
    p[i] = saved;
    omp_check_close("gradient", i, dp[i], (fp - fm) / (2 * h), 2e-3);
  }
  return ad_test_finish();
}
