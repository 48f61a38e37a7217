/* gpt2_layers.c - the GPT-2 layers: forward and handwritten backward.
 *
 * The loop structure is llm.c's CPU reference (train_gpt2.c), without its
 * tiling, so the plugin differentiates the same plain loops a reader sees,
 * and the handwritten backward is what a careful engineer writes by hand
 * against them. gpt2_ad.c includes this file to differentiate the forwards;
 * see gpt2.h for why GPT2_API prefixes every definition.
 *
 * GPT2_OMP marks the loops llm.c runs in parallel, with llm.c's own OpenMP
 * pragmas and nowhere else: matmul_forward, matmul_backward,
 * attention_forward and the softmax in crossentropy_forward (llm.c's
 * softmax_forward). It expands to the pragma only when the file is compiled
 * with -fopenmp (gpt2_bench_omp) and to nothing otherwise, so the serial
 * gpt2_bench is compiled from the same tokens as before.
 */
#include "gpt2.h"

#include <math.h>

#ifdef _OPENMP
#define GPT2_OMP(directive) _Pragma(directive)
#else
#define GPT2_OMP(directive)
#endif

GPT2_API void encoder_forward(float *restrict out, const int *restrict inp,
                              const float *restrict wte,
                              const float *restrict wpe, int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * C + t * C;
      const float *wte_ix = wte + inp[b * T + t] * C;
      const float *wpe_t = wpe + t * C;
      for (int i = 0; i < C; i++)
        out_bt[i] = wte_ix[i] + wpe_t[i];
    }
  }
}

GPT2_API void encoder_backward(float *restrict dwte, float *restrict dwpe,
                               const float *restrict dout,
                               const int *restrict inp, int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *dout_bt = dout + b * T * C + t * C;
      float *dwte_ix = dwte + inp[b * T + t] * C;
      float *dwpe_t = dwpe + t * C;
      for (int i = 0; i < C; i++) {
        dwte_ix[i] += dout_bt[i];
        dwpe_t[i] += dout_bt[i];
      }
    }
  }
}

GPT2_API void layernorm_forward(float *restrict out, float *restrict mean,
                                float *restrict rstd, const float *restrict inp,
                                const float *restrict weight,
                                const float *restrict bias, int B, int T,
                                int C) {
  const float eps = 1e-5f;
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *x = inp + b * T * C + t * C;
      float m = 0.0f;
      for (int i = 0; i < C; i++)
        m += x[i];
      m = m / C;
      /* Two passes: the variance about the mean, not E[x^2] - m^2, which
       * cancels badly when |m| is large against the spread. */
      float v = 0.0f;
      for (int i = 0; i < C; i++) {
        float xshift = x[i] - m;
        v += xshift * xshift;
      }
      v = v / C;
      float s = 1.0f / sqrtf(v + eps);
      float *out_bt = out + b * T * C + t * C;
      for (int i = 0; i < C; i++) {
        float n = s * (x[i] - m);
        out_bt[i] = n * weight[i] + bias[i];
      }
      mean[b * T + t] = m;
      rstd[b * T + t] = s;
    }
  }
}

/* With n = (x - mean) rstd and g = weight * dout:
 *   dx = rstd (g - mean(g) - n mean(g n)). */
GPT2_API void
layernorm_backward(float *restrict dinp, float *restrict dweight,
                   float *restrict dbias, const float *restrict dout,
                   const float *restrict inp, const float *restrict weight,
                   const float *restrict mean, const float *restrict rstd,
                   int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *dout_bt = dout + b * T * C + t * C;
      const float *inp_bt = inp + b * T * C + t * C;
      float *dinp_bt = dinp + b * T * C + t * C;
      float mean_bt = mean[b * T + t];
      float rstd_bt = rstd[b * T + t];

      float g_mean = 0.0f, gn_mean = 0.0f;
      for (int i = 0; i < C; i++) {
        float n = (inp_bt[i] - mean_bt) * rstd_bt;
        float g = weight[i] * dout_bt[i];
        g_mean += g;
        gn_mean += g * n;
      }
      g_mean = g_mean / C;
      gn_mean = gn_mean / C;

      for (int i = 0; i < C; i++) {
        float n = (inp_bt[i] - mean_bt) * rstd_bt;
        float g = weight[i] * dout_bt[i];
        dbias[i] += dout_bt[i];
        dweight[i] += n * dout_bt[i];
        dinp_bt[i] += rstd_bt * (g - g_mean - n * gn_mean);
      }
    }
  }
}

GPT2_API void matmul_forward(float *restrict out, const float *restrict inp,
                             const float *restrict weight,
                             const float *restrict bias, int B, int T, int C,
                             int OC) {
  GPT2_OMP("omp parallel for collapse(2)")
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *inp_bt = inp + b * T * C + t * C;
      float *out_bt = out + b * T * OC + t * OC;
      for (int o = 0; o < OC; o++) {
        const float *wrow = weight + o * C;
        float val = bias[o];
        for (int i = 0; i < C; i++)
          val += inp_bt[i] * wrow[i];
        out_bt[o] = val;
      }
    }
  }
}

/* Two sweeps, as in llm.c: dinp row by row over (b, t), then dweight and
 * dbias row by row over o, so each sweep writes one contiguous row. */
GPT2_API void matmul_backward(float *restrict dinp, float *restrict dweight,
                              float *restrict dbias, const float *restrict dout,
                              const float *restrict inp,
                              const float *restrict weight, int B, int T, int C,
                              int OC) {
  GPT2_OMP("omp parallel for collapse(2)")
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *dout_bt = dout + b * T * OC + t * OC;
      float *dinp_bt = dinp + b * T * C + t * C;
      for (int o = 0; o < OC; o++) {
        const float *wrow = weight + o * C;
        float d = dout_bt[o];
        for (int i = 0; i < C; i++)
          dinp_bt[i] += wrow[i] * d;
      }
    }
  }
  GPT2_OMP("omp parallel for")
  for (int o = 0; o < OC; o++) {
    float *dwrow = dweight + o * C;
    for (int b = 0; b < B; b++) {
      for (int t = 0; t < T; t++) {
        const float *inp_bt = inp + b * T * C + t * C;
        float d = dout[b * T * OC + t * OC + o];
        if (dbias)
          dbias[o] += d;
        for (int i = 0; i < C; i++)
          dwrow[i] += inp_bt[i] * d;
      }
    }
  }
}

GPT2_API void matmul_forward_nobias(float *restrict out,
                                    const float *restrict inp,
                                    const float *restrict weight, int B, int T,
                                    int C, int OC) {
  GPT2_OMP("omp parallel for collapse(2)")
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *inp_bt = inp + b * T * C + t * C;
      float *out_bt = out + b * T * OC + t * OC;
      for (int o = 0; o < OC; o++) {
        const float *wrow = weight + o * C;
        float val = 0.0f;
        for (int i = 0; i < C; i++)
          val += inp_bt[i] * wrow[i];
        out_bt[o] = val;
      }
    }
  }
}

/* For each (b, t, head): scores of query t against keys 0..t, a softmax over
 * them (shifted by their maximum so expf cannot overflow), and the weighted
 * sum of values 0..t. Entries t2 > t of att are zero, so att is a full,
 * causally masked matrix. */
GPT2_API void attention_forward(float *restrict out, float *restrict preatt,
                                float *restrict att, const float *restrict inp,
                                int B, int T, int C, int NH) {
  int C3 = 3 * C;
  int hs = C / NH;
  float scale = 1.0f / sqrtf((float)hs);
  GPT2_OMP("omp parallel for collapse(3)")
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int h = 0; h < NH; h++) {
        const float *query = inp + b * T * C3 + t * C3 + h * hs;
        float *preatt_bth = preatt + b * NH * T * T + h * T * T + t * T;
        float *att_bth = att + b * NH * T * T + h * T * T + t * T;

        float maxval = -INFINITY;
        for (int t2 = 0; t2 <= t; t2++) {
          const float *key = inp + b * T * C3 + t2 * C3 + h * hs + C;
          float dot = 0.0f;
          for (int i = 0; i < hs; i++)
            dot += query[i] * key[i];
          dot *= scale;
          if (dot > maxval)
            maxval = dot;
          preatt_bth[t2] = dot;
        }

        float expsum = 0.0f;
        for (int t2 = 0; t2 <= t; t2++) {
          float e = expf(preatt_bth[t2] - maxval);
          expsum += e;
          att_bth[t2] = e;
        }
        float expsum_inv = 1.0f / expsum;
        for (int t2 = 0; t2 < T; t2++) {
          if (t2 <= t)
            att_bth[t2] *= expsum_inv;
          else
            att_bth[t2] = 0.0f;
        }

        float *out_bth = out + b * T * C + t * C + h * hs;
        for (int i = 0; i < hs; i++)
          out_bth[i] = 0.0f;
        for (int t2 = 0; t2 <= t; t2++) {
          const float *value = inp + b * T * C3 + t2 * C3 + h * hs + 2 * C;
          float a = att_bth[t2];
          for (int i = 0; i < hs; i++)
            out_bth[i] += a * value[i];
        }
      }
    }
  }
}

/* Reverses the four passes of attention_forward. The softmax step uses
 * dpre[t3] = att[t3] (datt[t3] - sum_t2 att[t2] datt[t2]), which is O(T) per
 * row, rather than llm.c's O(T^2) loop over the full Jacobian. */
GPT2_API void attention_backward(float *restrict dinp, float *restrict dpreatt,
                                 float *restrict datt,
                                 const float *restrict dout,
                                 const float *restrict inp,
                                 const float *restrict att, int B, int T, int C,
                                 int NH) {
  int C3 = 3 * C;
  int hs = C / NH;
  float scale = 1.0f / sqrtf((float)hs);
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int h = 0; h < NH; h++) {
        const float *att_bth = att + b * NH * T * T + h * T * T + t * T;
        float *datt_bth = datt + b * NH * T * T + h * T * T + t * T;
        float *dpreatt_bth = dpreatt + b * NH * T * T + h * T * T + t * T;
        const float *query = inp + b * T * C3 + t * C3 + h * hs;
        float *dquery = dinp + b * T * C3 + t * C3 + h * hs;
        const float *dout_bth = dout + b * T * C + t * C + h * hs;

        /* out = sum_t2 att[t2] value[t2] */
        for (int t2 = 0; t2 <= t; t2++) {
          const float *value = inp + b * T * C3 + t2 * C3 + h * hs + 2 * C;
          float *dvalue = dinp + b * T * C3 + t2 * C3 + h * hs + 2 * C;
          float a = att_bth[t2];
          float da = 0.0f;
          for (int i = 0; i < hs; i++) {
            da += value[i] * dout_bth[i];
            dvalue[i] += a * dout_bth[i];
          }
          datt_bth[t2] += da;
        }

        /* softmax */
        float att_datt = 0.0f;
        for (int t2 = 0; t2 <= t; t2++)
          att_datt += att_bth[t2] * datt_bth[t2];
        for (int t2 = 0; t2 <= t; t2++)
          dpreatt_bth[t2] += att_bth[t2] * (datt_bth[t2] - att_datt);

        /* preatt = scale q . k */
        for (int t2 = 0; t2 <= t; t2++) {
          const float *key = inp + b * T * C3 + t2 * C3 + h * hs + C;
          float *dkey = dinp + b * T * C3 + t2 * C3 + h * hs + C;
          float d = dpreatt_bth[t2] * scale;
          for (int i = 0; i < hs; i++) {
            dquery[i] += key[i] * d;
            dkey[i] += query[i] * d;
          }
        }
      }
    }
  }
}

#define GELU_SCALING_FACTOR 0.7978845608028654f /* sqrt(2 / pi) */

GPT2_API void gelu_forward(float *restrict out, const float *restrict inp,
                           int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
  }
}

/* d/dx 0.5 x (1 + tanh u) = 0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) du/dx,
 * du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2). */
GPT2_API void gelu_backward(float *restrict dinp, const float *restrict inp,
                            const float *restrict dout, int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    float th = tanhf(GELU_SCALING_FACTOR * (x + cube));
    float du = GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
    float local_grad = 0.5f * (1.0f + th) + 0.5f * x * (1.0f - th * th) * du;
    dinp[i] += local_grad * dout[i];
  }
}

GPT2_API void residual_forward(float *restrict out, const float *restrict inp1,
                               const float *restrict inp2, int N) {
  for (int i = 0; i < N; i++)
    out[i] = inp1[i] + inp2[i];
}

GPT2_API void residual_backward(float *restrict dinp1, float *restrict dinp2,
                                const float *restrict dout, int N) {
  for (int i = 0; i < N; i++) {
    dinp1[i] += dout[i];
    dinp2[i] += dout[i];
  }
}

GPT2_API void crossentropy_forward(float *restrict losses,
                                   float *restrict probs,
                                   const float *restrict logits,
                                   const int *restrict targets, int B, int T,
                                   int V, int Vp) {
  GPT2_OMP("omp parallel for collapse(2)")
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *logits_bt = logits + b * T * Vp + t * Vp;
      float *probs_bt = probs + b * T * Vp + t * Vp;

      float maxval = -INFINITY;
      for (int i = 0; i < V; i++)
        if (logits_bt[i] > maxval)
          maxval = logits_bt[i];
      float sum = 0.0f;
      for (int i = 0; i < V; i++) {
        probs_bt[i] = expf(logits_bt[i] - maxval);
        sum += probs_bt[i];
      }
      for (int i = 0; i < V; i++)
        probs_bt[i] /= sum;
      for (int i = V; i < Vp; i++)
        probs_bt[i] = 0.0f;

      losses[b * T + t] = -logf(probs_bt[targets[b * T + t]]);
    }
  }
}

GPT2_API void crossentropy_backward(float *restrict dlogits,
                                    const float *restrict dlosses,
                                    const float *restrict probs,
                                    const int *restrict targets, int B, int T,
                                    int V, int Vp) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *dlogits_bt = dlogits + b * T * Vp + t * Vp;
      const float *probs_bt = probs + b * T * Vp + t * Vp;
      float dloss = dlosses[b * T + t];
      int ix = targets[b * T + t];
      for (int i = 0; i < V; i++) {
        float indicator = i == ix ? 1.0f : 0.0f;
        dlogits_bt[i] += (probs_bt[i] - indicator) * dloss;
      }
    }
  }
}
