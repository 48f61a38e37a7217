/* gpt2.h - a GPT-2 training step in C, in the style of llm.c's train_gpt2.c:
 * flat float buffers, one plain loop nest per layer, a handwritten backward
 * for every layer, and (gpt2_ad.c) the same forward functions differentiated
 * by the plugin through __ad_autodiff.
 *
 * Linkage: every forward and backward function is declared with GPT2_API,
 * which is empty (external) everywhere except in gpt2_ad.c. That file
 * defines GPT2_API as `static` and #includes gpt2_layers.c and gpt2_model.c,
 * so the plugin sees the bodies it differentiates in its own translation
 * unit, while the linker sees exactly one external definition of each
 * function: the one in the plainly compiled gpt2_layers.o / gpt2_model.o.
 */
#ifndef GPT2_H
#define GPT2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef GPT2_API
#define GPT2_API
#endif

/* ---- Layers (gpt2_layers.c). Shapes in brackets, row-major. Backward
 * functions accumulate (+=) into every gradient they write. The definitions
 * declare every pointer parameter restrict: the buffers passed to one call
 * must not overlap. ---- */

/* out[B,T,C] = wte[inp[b,t],:] + wpe[t,:] */
GPT2_API void encoder_forward(float *out, const int *inp, const float *wte,
                              const float *wpe, int B, int T, int C);
GPT2_API void encoder_backward(float *dwte, float *dwpe, const float *dout,
                               const int *inp, int B, int T, int C);

/* Normalizes each inp[b,t,:]; saves mean[B*T] and rstd[B*T] for backward. */
GPT2_API void layernorm_forward(float *out, float *mean, float *rstd,
                                const float *inp, const float *weight,
                                const float *bias, int B, int T, int C);
GPT2_API void layernorm_backward(float *dinp, float *dweight, float *dbias,
                                 const float *dout, const float *inp,
                                 const float *weight, const float *mean,
                                 const float *rstd, int B, int T, int C);

/* out[B,T,OC] = inp[B,T,C] weight[OC,C]^T + bias[OC] */
GPT2_API void matmul_forward(float *out, const float *inp, const float *weight,
                             const float *bias, int B, int T, int C, int OC);
/* dbias may be NULL: the backward of matmul_forward_nobias. */
GPT2_API void matmul_backward(float *dinp, float *dweight, float *dbias,
                              const float *dout, const float *inp,
                              const float *weight, int B, int T, int C, int OC);
/* The forward without a bias: the language-model head, whose weight is wte.
 * (A separate function rather than a NULL bias, so that every pointer the
 * AD path passes has a shadow.) */
GPT2_API void matmul_forward_nobias(float *out, const float *inp,
                                    const float *weight, int B, int T, int C,
                                    int OC);

/* Causal multi-head self-attention. inp[B,T,3C] holds q, k, v side by side;
 * preatt and att [B,NH,T,T] are the scores before and after softmax. */
GPT2_API void attention_forward(float *out, float *preatt, float *att,
                                const float *inp, int B, int T, int C, int NH);
GPT2_API void attention_backward(float *dinp, float *dpreatt, float *datt,
                                 const float *dout, const float *inp,
                                 const float *att, int B, int T, int C, int NH);

/* GELU, tanh approximation, elementwise over N values. */
GPT2_API void gelu_forward(float *out, const float *inp, int N);
GPT2_API void gelu_backward(float *dinp, const float *inp, const float *dout,
                            int N);

/* out = inp1 + inp2 */
GPT2_API void residual_forward(float *out, const float *inp1, const float *inp2,
                               int N);
GPT2_API void residual_backward(float *dinp1, float *dinp2, const float *dout,
                                int N);

/* Softmax of logits[B,T,Vp] over the first V entries (the padding gets
 * probability 0), then losses[B*T] = -log probs[target]. */
GPT2_API void crossentropy_forward(float *losses, float *probs,
                                   const float *logits, const int *targets,
                                   int B, int T, int V, int Vp);
/* The fused softmax and cross-entropy backward:
 * dlogits += (probs - 1[target]) dloss. */
GPT2_API void crossentropy_backward(float *dlogits, const float *dlosses,
                                    const float *probs, const int *targets,
                                    int B, int T, int V, int Vp);

/* ---- The model (gpt2_model.c) ---- */

typedef struct {
  int maxT; /* longest sequence (rows of wpe) */
  int V;    /* vocabulary size */
  int Vp;   /* V padded up (rows of wte, columns of logits) */
  int L;    /* number of layers */
  int NH;   /* heads per attention layer */
  int C;    /* channels */
} GPT2Config;

/* Parameter tensors, in their order in the flat parameter buffer. A leading
 * L in a shape means one slice per layer. */
enum {
  GPT2_WTE,      /* [Vp, C] */
  GPT2_WPE,      /* [maxT, C] */
  GPT2_LN1W,     /* [L, C] */
  GPT2_LN1B,     /* [L, C] */
  GPT2_QKVW,     /* [L, 3C, C] */
  GPT2_QKVB,     /* [L, 3C] */
  GPT2_ATTPROJW, /* [L, C, C] */
  GPT2_ATTPROJB, /* [L, C] */
  GPT2_LN2W,     /* [L, C] */
  GPT2_LN2B,     /* [L, C] */
  GPT2_FCW,      /* [L, 4C, C] */
  GPT2_FCB,      /* [L, 4C] */
  GPT2_FCPROJW,  /* [L, C, 4C] */
  GPT2_FCPROJB,  /* [L, C] */
  GPT2_LNFW,     /* [C] */
  GPT2_LNFB,     /* [C] */
  GPT2_NUM_PARAM_TENSORS
};

/* Activation tensors, in their order in the flat activation buffer. */
enum {
  GPT2_ENCODED,   /* [B, T, C] */
  GPT2_LN1,       /* [L, B, T, C] */
  GPT2_LN1_MEAN,  /* [L, B, T] */
  GPT2_LN1_RSTD,  /* [L, B, T] */
  GPT2_QKV,       /* [L, B, T, 3C] */
  GPT2_ATTY,      /* [L, B, T, C] */
  GPT2_PREATT,    /* [L, B, NH, T, T] */
  GPT2_ATT,       /* [L, B, NH, T, T] */
  GPT2_ATTPROJ,   /* [L, B, T, C] */
  GPT2_RESIDUAL2, /* [L, B, T, C] */
  GPT2_LN2,       /* [L, B, T, C] */
  GPT2_LN2_MEAN,  /* [L, B, T] */
  GPT2_LN2_RSTD,  /* [L, B, T] */
  GPT2_FCH,       /* [L, B, T, 4C] */
  GPT2_FCH_GELU,  /* [L, B, T, 4C] */
  GPT2_FCPROJ,    /* [L, B, T, C] */
  GPT2_RESIDUAL3, /* [L, B, T, C] */
  GPT2_LNF,       /* [B, T, C] */
  GPT2_LNF_MEAN,  /* [B, T] */
  GPT2_LNF_RSTD,  /* [B, T] */
  GPT2_LOGITS,    /* [B, T, Vp] */
  GPT2_PROBS,     /* [B, T, Vp] */
  GPT2_LOSSES,    /* [B, T] */
  GPT2_NUM_ACT_TENSORS
};

/* Tensor i occupies [off[i], off[i + 1]) of its flat buffer; the last entry
 * is the buffer's length in floats. */
typedef struct {
  size_t off[GPT2_NUM_PARAM_TENSORS + 1];
} GPT2ParamLayout;
typedef struct {
  size_t off[GPT2_NUM_ACT_TENSORS + 1];
} GPT2ActLayout;

GPT2_API void gpt2_param_layout(const GPT2Config *cfg, GPT2ParamLayout *layout);
GPT2_API void gpt2_act_layout(const GPT2Config *cfg, int B, int T,
                              GPT2ActLayout *layout);

/* Runs the model on inputs[B,T] and returns the mean cross-entropy loss
 * against targets[B,T]; acts receives every activation backward needs. */
GPT2_API float gpt2_forward(const float *params, float *acts, const int *inputs,
                            const int *targets, int B, int T,
                            const GPT2Config *cfg);
/* Handwritten gradient of gpt2_forward's mean loss, once gpt2_forward has
 * filled acts: accumulates into grads; grad_acts (acts' layout) must be 0. */
GPT2_API void gpt2_backward(const float *params, float *grads,
                            const float *acts, float *grad_acts,
                            const int *inputs, const int *targets, int B, int T,
                            const GPT2Config *cfg);

/* ---- Gradients by the plugin (gpt2_ad.c): one __ad_autodiff call each,
 * which runs the forward and the reverse sweep. Each takes a primal buffer
 * followed by its shadow. The shadow of an output (out, losses, ...) is the
 * seed: fill it with the upstream gradient; the plugin resets it to zero.
 * Shadows of saved activations (mean, rstd, preatt, att, probs) must be zero
 * on entry. Shadows of inputs and weights accumulate (+=). ---- */

void encoder_grad_ad(float *out, float *dout, const int *inp, const float *wte,
                     float *dwte, const float *wpe, float *dwpe, int B, int T,
                     int C);
void layernorm_grad_ad(float *out, float *dout, float *mean, float *dmean,
                       float *rstd, float *drstd, const float *inp, float *dinp,
                       const float *weight, float *dweight, const float *bias,
                       float *dbias, int B, int T, int C);
void matmul_grad_ad(float *out, float *dout, const float *inp, float *dinp,
                    const float *weight, float *dweight, const float *bias,
                    float *dbias, int B, int T, int C, int OC);
void matmul_nobias_grad_ad(float *out, float *dout, const float *inp,
                           float *dinp, const float *weight, float *dweight,
                           int B, int T, int C, int OC);
void attention_grad_ad(float *out, float *dout, float *preatt, float *dpreatt,
                       float *att, float *datt, const float *inp, float *dinp,
                       int B, int T, int C, int NH);
void gelu_grad_ad(float *out, float *dout, const float *inp, float *dinp,
                  int N);
void residual_grad_ad(float *out, float *dout, const float *inp1, float *dinp1,
                      const float *inp2, float *dinp2, int N);
void crossentropy_grad_ad(float *losses, float *dlosses, float *probs,
                          float *dprobs, const float *logits, float *dlogits,
                          const int *targets, int B, int T, int V, int Vp);
/* Gradient of gpt2_forward's mean loss: fills acts as gpt2_forward does and
 * accumulates into grads; grad_acts must be zero (and is zero again after). */
void gpt2_grad_ad(const float *params, float *grads, float *acts,
                  float *grad_acts, const int *inputs, const int *targets,
                  int B, int T, const GPT2Config *cfg);

#ifdef __cplusplus
}
#endif

#endif /* GPT2_H */
