/* gpt2_ad.c - gradients of the GPT-2 forward functions by the plugin.
 *
 * Compiled by clang-22 with -fpass-plugin=ADPlugin.so. The plugin needs the
 * bodies of the functions it differentiates, so this file includes the
 * forward code itself, with GPT2_API defined as `static`: the copies here are
 * private to this object and differentiated here, and the one external
 * definition of each layer stays in the plainly compiled gpt2_layers.o and
 * gpt2_model.o that the handwritten path calls. Both copies come from the
 * same source text, so both paths differentiate the same forward functions.
 *
 * The copies are always inlined: gpt2_forward's gradient then sees every
 * layer's loops, and checks at run time that no layer writes over what an
 * earlier one wrote into the activation buffer (docs/DESIGN.md, "Loads
 * repeated after run-time checks"), so that it reads activations back
 * instead of taping them. A call would hide which part of the buffer the
 * layer writes. Each layer's own gradient below differentiates the layer
 * itself, as before.
 */
#define GPT2_API static inline __attribute__((always_inline, unused))
#include "gpt2_layers.c"
#include "gpt2_model.c"

#include <ad.h>

/* None of these calls has an __ad_out argument, so none returns anything. */
void __ad_autodiff_void(void *f, ...);

void encoder_grad_ad(float *out, float *dout, const int *inp, const float *wte,
                     float *dwte, const float *wpe, float *dwpe, int B, int T,
                     int C) {
  __ad_autodiff_void((void *)encoder_forward, __ad_dup, out, dout, __ad_const,
                     inp, __ad_dup, wte, dwte, __ad_dup, wpe, dwpe, __ad_const,
                     B, __ad_const, T, __ad_const, C);
}

void layernorm_grad_ad(float *out, float *dout, float *mean, float *dmean,
                       float *rstd, float *drstd, const float *inp, float *dinp,
                       const float *weight, float *dweight, const float *bias,
                       float *dbias, int B, int T, int C) {
  __ad_autodiff_void((void *)layernorm_forward, __ad_dup, out, dout, __ad_dup,
                     mean, dmean, __ad_dup, rstd, drstd, __ad_dup, inp, dinp,
                     __ad_dup, weight, dweight, __ad_dup, bias, dbias,
                     __ad_const, B, __ad_const, T, __ad_const, C);
}

void matmul_grad_ad(float *out, float *dout, const float *inp, float *dinp,
                    const float *weight, float *dweight, const float *bias,
                    float *dbias, int B, int T, int C, int OC) {
  __ad_autodiff_void((void *)matmul_forward, __ad_dup, out, dout, __ad_dup, inp,
                     dinp, __ad_dup, weight, dweight, __ad_dup, bias, dbias,
                     __ad_const, B, __ad_const, T, __ad_const, C, __ad_const,
                     OC);
}

void matmul_nobias_grad_ad(float *out, float *dout, const float *inp,
                           float *dinp, const float *weight, float *dweight,
                           int B, int T, int C, int OC) {
  __ad_autodiff_void((void *)matmul_forward_nobias, __ad_dup, out, dout,
                     __ad_dup, inp, dinp, __ad_dup, weight, dweight, __ad_const,
                     B, __ad_const, T, __ad_const, C, __ad_const, OC);
}

void attention_grad_ad(float *out, float *dout, float *preatt, float *dpreatt,
                       float *att, float *datt, const float *inp, float *dinp,
                       int B, int T, int C, int NH) {
  __ad_autodiff_void((void *)attention_forward, __ad_dup, out, dout, __ad_dup,
                     preatt, dpreatt, __ad_dup, att, datt, __ad_dup, inp, dinp,
                     __ad_const, B, __ad_const, T, __ad_const, C, __ad_const,
                     NH);
}

void gelu_grad_ad(float *out, float *dout, const float *inp, float *dinp,
                  int N) {
  __ad_autodiff_void((void *)gelu_forward, __ad_dup, out, dout, __ad_dup, inp,
                     dinp, __ad_const, N);
}

void residual_grad_ad(float *out, float *dout, const float *inp1, float *dinp1,
                      const float *inp2, float *dinp2, int N) {
  __ad_autodiff_void((void *)residual_forward, __ad_dup, out, dout, __ad_dup,
                     inp1, dinp1, __ad_dup, inp2, dinp2, __ad_const, N);
}

void crossentropy_grad_ad(float *losses, float *dlosses, float *probs,
                          float *dprobs, const float *logits, float *dlogits,
                          const int *targets, int B, int T, int V, int Vp) {
  __ad_autodiff_void((void *)crossentropy_forward, __ad_dup, losses, dlosses,
                     __ad_dup, probs, dprobs, __ad_dup, logits, dlogits,
                     __ad_const, targets, __ad_const, B, __ad_const, T,
                     __ad_const, V, __ad_const, Vp);
}

/* The returned mean loss is the seeded output; losses, probs and the other
 * activations are outputs too, seeded by grad_acts, which is zero. */
void gpt2_grad_ad(const float *params, float *grads, float *acts,
                  float *grad_acts, const int *inputs, const int *targets,
                  int B, int T, const GPT2Config *cfg) {
  __ad_autodiff_void((void *)gpt2_forward, __ad_dup, params, grads, __ad_dup,
                     acts, grad_acts, __ad_const, inputs, __ad_const, targets,
                     __ad_const, B, __ad_const, T, __ad_const, cfg);
}
